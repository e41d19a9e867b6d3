# Generated from templates/_secondary.md.j2 by scripts/make_compiled_templates.py
KEY = '1ca1dc8d9150bac667f5548050f0845ff852b89e242abbe761e654e3aabd1363'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_secondary.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_secondary = resolve('secondary')
    l_0_table = resolve('table')
    try:
        t_1 = environment.filters['md']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'md' found.")
    pass
    if (undefined(name='secondary') if l_0_secondary is missing else l_0_secondary):
        pass
        yield '## Secondary judgments\n\n'
        yield str(t_1(environment.getattr((undefined(name='secondary') if l_0_secondary is missing else l_0_secondary), 'intro')))
        yield '\n\n'
        l_0_table = environment.getattr((undefined(name='secondary') if l_0_secondary is missing else l_0_secondary), 'table')
        context.vars['table'] = l_0_table
        context.exported_vars.add('table')
        template = environment.get_template('_table.md.j2', '_secondary.md.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_0_table}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
        yield '\n'
        yield str(t_1(environment.getattr((undefined(name='secondary') if l_0_secondary is missing else l_0_secondary), 'agreement')))
        yield '\n\n'
        if environment.getattr((undefined(name='secondary') if l_0_secondary is missing else l_0_secondary), 'matrix'):
            pass
            l_0_table = environment.getattr((undefined(name='secondary') if l_0_secondary is missing else l_0_secondary), 'matrix')
            context.vars['table'] = l_0_table
            context.exported_vars.add('table')
            template = environment.get_template('_table.md.j2', '_secondary.md.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_0_table}))
            try:
                for event in gen:
                    yield event
            finally: gen.close()
            yield '\n'
        if environment.getattr((undefined(name='secondary') if l_0_secondary is missing else l_0_secondary), 'ppi'):
            pass
            yield '### Prediction-powered means\n\n'
            yield str(t_1(environment.getattr((undefined(name='secondary') if l_0_secondary is missing else l_0_secondary), 'ppi_intro')))
            yield '\n\n'
            l_0_table = environment.getattr((undefined(name='secondary') if l_0_secondary is missing else l_0_secondary), 'ppi')
            context.vars['table'] = l_0_table
            context.exported_vars.add('table')
            template = environment.get_template('_table.md.j2', '_secondary.md.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_0_table}))
            try:
                for event in gen:
                    yield event
            finally: gen.close()
            yield '\n'
            if environment.getattr((undefined(name='secondary') if l_0_secondary is missing else l_0_secondary), 'ppi_comparisons'):
                pass
                l_0_table = environment.getattr((undefined(name='secondary') if l_0_secondary is missing else l_0_secondary), 'ppi_comparisons')
                context.vars['table'] = l_0_table
                context.exported_vars.add('table')
                template = environment.get_template('_table.md.j2', '_secondary.md.j2')
                gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_0_table}))
                try:
                    for event in gen:
                        yield event
                finally: gen.close()
                yield '\n'

blocks = {}
debug_info = '2=19&5=22&7=24&8=27&10=34&12=36&13=38&14=41&17=48&20=51&22=53&23=56&25=63&26=65&27=68'