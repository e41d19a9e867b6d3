# Generated from templates/_slices.md.j2 by scripts/make_compiled_templates.py
KEY = 'ec84984492671e186df01b5f01c8178333b43dbc7dbbf97c5b058dca8fd9e234'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_slices.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_slices = resolve('slices')
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
        if environment.getattr((undefined(name='slices') if l_0_slices is missing else l_0_slices), 'not_gated'):
            pass
            yield str(t_1(environment.getattr((undefined(name='slices') if l_0_slices is missing else l_0_slices), 'not_gated')))
            yield '\n\n'

blocks = {}
debug_info = '2=18&5=21&7=23&8=27&10=29&13=37&14=39'