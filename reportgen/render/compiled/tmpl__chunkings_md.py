# Generated from templates/_chunkings.md.j2 by scripts/make_compiled_templates.py
KEY = '57e62e5ff7fbada16b85263bec6d8576bba58183ce78a521441da1cc979dec91'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_chunkings.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_chunkings = resolve('chunkings')
    l_0_table = resolve('table')
    l_0_chart_format = resolve('chart_format')
    try:
        t_1 = environment.filters['md']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'md' found.")
    pass
    if (undefined(name='chunkings') if l_0_chunkings is missing else l_0_chunkings):
        pass
        yield '## Chunkings\n\n'
        yield str(t_1(environment.getattr((undefined(name='chunkings') if l_0_chunkings is missing else l_0_chunkings), 'intro')))
        yield '\n\n'
        l_0_table = environment.getattr((undefined(name='chunkings') if l_0_chunkings is missing else l_0_chunkings), 'table')
        context.vars['table'] = l_0_table
        context.exported_vars.add('table')
        template = environment.get_template('_table.md.j2', '_chunkings.md.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_0_table}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
        yield '\n!['
        yield str(t_1(environment.getattr((undefined(name='chunkings') if l_0_chunkings is missing else l_0_chunkings), 'caption')))
        yield '](charts/'
        yield str(environment.getattr((undefined(name='chunkings') if l_0_chunkings is missing else l_0_chunkings), 'chart_stem'))
        yield '.'
        yield str((undefined(name='chart_format') if l_0_chart_format is missing else l_0_chart_format))
        yield ')\n\n'

blocks = {}
debug_info = '2=20&5=23&7=25&8=28&10=35'