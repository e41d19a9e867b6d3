# Generated from templates/_latency.md.j2 by scripts/make_compiled_templates.py
KEY = '7bf6979d079e4a684e1e2841361945242840420d9f590e83b99df05e86a1c0ed'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_latency.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_latency = resolve('latency')
    l_0_chart_format = resolve('chart_format')
    try:
        t_1 = environment.filters['md']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'md' found.")
    pass
    if (undefined(name='latency') if l_0_latency is missing else l_0_latency):
        pass
        yield '## Latency and cost\n\n'
        yield str(t_1(environment.getattr((undefined(name='latency') if l_0_latency is missing else l_0_latency), 'intro')))
        yield '\n\n'
        for l_1_table in environment.getattr((undefined(name='latency') if l_0_latency is missing else l_0_latency), 'tables'):
            _loop_vars = {}
            pass
            yield '**'
            yield str(t_1(environment.getattr(l_1_table, 'caption')))
            yield '**\n\n'
            template = environment.get_template('_table.md.j2', '_latency.md.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_1_table}))
            try:
                for event in gen:
                    yield event
            finally: gen.close()
            yield '\n'
        l_1_table = missing
        for l_1_note in environment.getattr((undefined(name='latency') if l_0_latency is missing else l_0_latency), 'notes'):
            _loop_vars = {}
            pass
            yield '- '
            yield str(t_1(l_1_note))
            yield '\n'
        l_1_note = missing
        yield '\n'
        if environment.getattr((undefined(name='latency') if l_0_latency is missing else l_0_latency), 'svg'):
            pass
            yield '!['
            yield str(t_1(environment.getattr((undefined(name='latency') if l_0_latency is missing else l_0_latency), 'caption')))
            yield '](charts/'
            yield str(environment.getattr((undefined(name='latency') if l_0_latency is missing else l_0_latency), 'chart_stem'))
            yield '.'
            yield str((undefined(name='chart_format') if l_0_chart_format is missing else l_0_chart_format))
            yield ')\n\n'

blocks = {}
debug_info = '2=19&5=22&7=24&8=28&10=30&13=38&14=42&17=46&18=49'