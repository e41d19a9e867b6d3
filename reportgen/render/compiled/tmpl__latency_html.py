# Generated from templates/_latency.html.j2 by scripts/make_compiled_templates.py
KEY = 'be45c334656ea6d2d173073524e406888ecc6473ca1cf8b1512a5cf0aebce4a3'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_latency.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_latency = resolve('latency')
    pass
    if (undefined(name='latency') if l_0_latency is missing else l_0_latency):
        pass
        yield '<section id="latency" aria-labelledby="latency-title">\n  <h2 id="latency-title">Latency and cost</h2>\n  <p class="note">'
        yield escape(environment.getattr((undefined(name='latency') if l_0_latency is missing else l_0_latency), 'intro'))
        yield '</p>\n'
        for l_1_table in environment.getattr((undefined(name='latency') if l_0_latency is missing else l_0_latency), 'tables'):
            _loop_vars = {}
            pass
            template = environment.get_template('_table.html.j2', '_latency.html.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_1_table}))
            try:
                for event in gen:
                    yield event
            finally: gen.close()
        l_1_table = missing
        if environment.getattr((undefined(name='latency') if l_0_latency is missing else l_0_latency), 'notes'):
            pass
            yield '  <ul class="note">\n'
            for l_1_note in environment.getattr((undefined(name='latency') if l_0_latency is missing else l_0_latency), 'notes'):
                _loop_vars = {}
                pass
                yield '<li>'
                yield escape(l_1_note)
                yield '</li>'
            l_1_note = missing
            yield '  </ul>\n'
        if environment.getattr((undefined(name='latency') if l_0_latency is missing else l_0_latency), 'svg'):
            pass
            yield '  <figure id="chart-'
            yield escape(environment.getattr((undefined(name='latency') if l_0_latency is missing else l_0_latency), 'chart_stem'))
            yield '">\n    '
            yield escape(environment.getattr((undefined(name='latency') if l_0_latency is missing else l_0_latency), 'svg'))
            yield '\n    <figcaption>'
            yield escape(environment.getattr((undefined(name='latency') if l_0_latency is missing else l_0_latency), 'caption'))
            yield '</figcaption>\n  </figure>\n'
        yield '</section>\n'

blocks = {}
debug_info = '2=12&5=15&6=17&7=20&9=27&11=30&14=38&15=41&16=43&17=45'