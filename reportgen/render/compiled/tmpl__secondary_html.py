# Generated from templates/_secondary.html.j2 by scripts/make_compiled_templates.py
KEY = '5bd0b65ce39a57f1e00f0fb3a6a58eb42e0a8b6bd1d56fb37d9fce2e8a18882b'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_secondary.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_secondary = resolve('secondary')
    l_0_table = resolve('table')
    pass
    if (undefined(name='secondary') if l_0_secondary is missing else l_0_secondary):
        pass
        yield '<section id="secondary" aria-labelledby="secondary-title">\n  <h2 id="secondary-title">Secondary judgments</h2>\n  <p class="note">'
        yield escape(environment.getattr((undefined(name='secondary') if l_0_secondary is missing else l_0_secondary), 'intro'))
        yield '</p>\n'
        l_0_table = environment.getattr((undefined(name='secondary') if l_0_secondary is missing else l_0_secondary), 'table')
        context.vars['table'] = l_0_table
        context.exported_vars.add('table')
        template = environment.get_template('_table.html.j2', '_secondary.html.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_0_table}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
        yield '  <p class="note">'
        yield escape(environment.getattr((undefined(name='secondary') if l_0_secondary is missing else l_0_secondary), 'agreement'))
        yield '</p>\n'
        if environment.getattr((undefined(name='secondary') if l_0_secondary is missing else l_0_secondary), 'matrix'):
            pass
            l_0_table = environment.getattr((undefined(name='secondary') if l_0_secondary is missing else l_0_secondary), 'matrix')
            context.vars['table'] = l_0_table
            context.exported_vars.add('table')
            template = environment.get_template('_table.html.j2', '_secondary.html.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_0_table}))
            try:
                for event in gen:
                    yield event
            finally: gen.close()
        if environment.getattr((undefined(name='secondary') if l_0_secondary is missing else l_0_secondary), 'ppi'):
            pass
            yield '  <h3 id="secondary-ppi">Prediction-powered means</h3>\n  <p class="note">'
            yield escape(environment.getattr((undefined(name='secondary') if l_0_secondary is missing else l_0_secondary), 'ppi_intro'))
            yield '</p>\n'
            l_0_table = environment.getattr((undefined(name='secondary') if l_0_secondary is missing else l_0_secondary), 'ppi')
            context.vars['table'] = l_0_table
            context.exported_vars.add('table')
            template = environment.get_template('_table.html.j2', '_secondary.html.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_0_table}))
            try:
                for event in gen:
                    yield event
            finally: gen.close()
            if environment.getattr((undefined(name='secondary') if l_0_secondary is missing else l_0_secondary), 'ppi_comparisons'):
                pass
                l_0_table = environment.getattr((undefined(name='secondary') if l_0_secondary is missing else l_0_secondary), 'ppi_comparisons')
                context.vars['table'] = l_0_table
                context.exported_vars.add('table')
                template = environment.get_template('_table.html.j2', '_secondary.html.j2')
                gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_0_table}))
                try:
                    for event in gen:
                        yield event
                finally: gen.close()
        yield '</section>\n'

blocks = {}
debug_info = '2=13&5=16&6=18&7=21&8=28&9=30&10=32&11=35&13=41&15=44&16=46&17=49&18=55&19=57&20=60'