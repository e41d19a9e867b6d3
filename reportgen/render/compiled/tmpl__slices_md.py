# Generated from templates/_slices.md.j2 by scripts/make_compiled_templates.py
KEY = 'e22428fbc77097a2279bee128b39e41af516e7d8e5ff119f2cff3739b819bf1f'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_slices.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_slices = resolve('slices')
    l_0_chart_format = resolve('chart_format')
    try:
        t_1 = environment.filters['md']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'md' found.")
    pass
    if (undefined(name='slices') if l_0_slices is missing else l_0_slices):
        pass
        yield '## Slices\n\n'
        yield str(t_1(environment.getattr((undefined(name='slices') if l_0_slices is missing else l_0_slices), 'intro')))
        yield '\n\n'
        for l_1_table in environment.getattr((undefined(name='slices') if l_0_slices is missing else l_0_slices), 'tables'):
            _loop_vars = {}
            pass
            yield '**'
            yield str(t_1(environment.getattr(l_1_table, 'caption')))
            yield '**\n\n'
            template = environment.get_template('_table.md.j2', '_slices.md.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_1_table}))
            try:
                for event in gen:
                    yield event
            finally: gen.close()
            yield '\n'
        l_1_table = missing
        if environment.getattr((undefined(name='slices') if l_0_slices is missing else l_0_slices), 'svg'):
            pass
            yield '!['
            yield str(t_1(environment.getattr((undefined(name='slices') if l_0_slices is missing else l_0_slices), 'caption')))
            yield '](charts/'
            yield str(environment.getattr((undefined(name='slices') if l_0_slices is missing else l_0_slices), 'chart_stem'))
            yield '.'
            yield str((undefined(name='chart_format') if l_0_chart_format is missing else l_0_chart_format))
            yield ')\n\n'
        if environment.getattr((undefined(name='slices') if l_0_slices is missing else l_0_slices), 'not_gated'):
            pass
            yield str(t_1(environment.getattr((undefined(name='slices') if l_0_slices is missing else l_0_slices), 'not_gated')))
            yield '\n\n'

blocks = {}
debug_info = '2=19&5=22&7=24&8=28&10=30&13=38&14=41&17=47&18=49'