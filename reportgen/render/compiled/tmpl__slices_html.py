# Generated from templates/_slices.html.j2 by scripts/make_compiled_templates.py
KEY = '75f3fc61256dc4974b0fcf9cec7748b6675d3a9bc0400e0445f1cdc578a587d0'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_slices.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_slices = resolve('slices')
    pass
    if (undefined(name='slices') if l_0_slices is missing else l_0_slices):
        pass
        yield '<section id="slices" aria-labelledby="slices-title">\n  <h2 id="slices-title">Slices</h2>\n  <p class="note">'
        yield escape(environment.getattr((undefined(name='slices') if l_0_slices is missing else l_0_slices), 'intro'))
        yield '</p>\n'
        for l_1_table in environment.getattr((undefined(name='slices') if l_0_slices is missing else l_0_slices), 'tables'):
            _loop_vars = {}
            pass
            template = environment.get_template('_table.html.j2', '_slices.html.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_1_table}))
            try:
                for event in gen:
                    yield event
            finally: gen.close()
        l_1_table = missing
        if environment.getattr((undefined(name='slices') if l_0_slices is missing else l_0_slices), 'svg'):
            pass
            yield '  <figure id="chart-'
            yield escape(environment.getattr((undefined(name='slices') if l_0_slices is missing else l_0_slices), 'chart_stem'))
            yield '">\n    '
            yield escape(environment.getattr((undefined(name='slices') if l_0_slices is missing else l_0_slices), 'svg'))
            yield '\n    <figcaption>'
            yield escape(environment.getattr((undefined(name='slices') if l_0_slices is missing else l_0_slices), 'caption'))
            yield '</figcaption>\n  </figure>\n'
        if environment.getattr((undefined(name='slices') if l_0_slices is missing else l_0_slices), 'not_gated'):
            pass
            yield '<p class="note">'
            yield escape(environment.getattr((undefined(name='slices') if l_0_slices is missing else l_0_slices), 'not_gated'))
            yield '</p>'
        yield '</section>\n'

blocks = {}
debug_info = '2=12&5=15&6=17&7=20&9=27&10=30&11=32&12=34&15=36'