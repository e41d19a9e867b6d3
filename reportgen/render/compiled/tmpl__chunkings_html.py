# Generated from templates/_chunkings.html.j2 by scripts/make_compiled_templates.py
KEY = '352a39b6641aa97032c779387d26275afd2bf238fbfe4cf1d990aec9ff1e40b5'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_chunkings.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_chunkings = resolve('chunkings')
    l_0_table = resolve('table')
    pass
    if (undefined(name='chunkings') if l_0_chunkings is missing else l_0_chunkings):
        pass
        yield '<section id="chunkings" aria-labelledby="chunkings-title">\n  <h2 id="chunkings-title">Chunkings</h2>\n  <p class="note">'
        yield escape(environment.getattr((undefined(name='chunkings') if l_0_chunkings is missing else l_0_chunkings), 'intro'))
        yield '</p>\n'
        l_0_table = environment.getattr((undefined(name='chunkings') if l_0_chunkings is missing else l_0_chunkings), 'table')
        context.vars['table'] = l_0_table
        context.exported_vars.add('table')
        template = environment.get_template('_table.html.j2', '_chunkings.html.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_0_table}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
        if environment.getattr((undefined(name='chunkings') if l_0_chunkings is missing else l_0_chunkings), 'svg'):
            pass
            yield '  <figure id="chart-'
            yield escape(environment.getattr((undefined(name='chunkings') if l_0_chunkings is missing else l_0_chunkings), 'chart_stem'))
            yield '">\n    '
            yield escape(environment.getattr((undefined(name='chunkings') if l_0_chunkings is missing else l_0_chunkings), 'svg'))
            yield '\n    <figcaption>'
            yield escape(environment.getattr((undefined(name='chunkings') if l_0_chunkings is missing else l_0_chunkings), 'caption'))
            yield '</figcaption>\n  </figure>\n'
        yield '</section>\n'

blocks = {}
debug_info = '2=13&5=16&6=18&7=21&8=27&9=30&10=32&11=34'