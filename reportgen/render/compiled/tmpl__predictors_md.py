# Generated from templates/_predictors.md.j2 by scripts/make_compiled_templates.py
KEY = 'd82c24078144ba5249d9a5faeff8d4c49da6529e0f810a5d8378fc52fd4be13c'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_predictors.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_predictors = resolve('predictors')
    l_0_view = resolve('view')
    l_0_table = resolve('table')
    l_0_chart_format = resolve('chart_format')
    try:
        t_1 = environment.filters['md']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'md' found.")
    pass
    if (undefined(name='predictors') if l_0_predictors is missing else l_0_predictors):
        pass
        l_0_view = (undefined(name='predictors') if l_0_predictors is missing else l_0_predictors)
        context.vars['view'] = l_0_view
        context.exported_vars.add('view')
        yield '## What predicts the answers ('
        yield str(t_1(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'run')))
        yield ')\n\n'
        for l_1_caution in environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'cautions'):
            _loop_vars = {}
            pass
            yield '> ⚠ '
            yield str(t_1(l_1_caution))
            yield '\n\n'
        l_1_caution = missing
        if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'headroom_line'):
            pass
            yield str(t_1(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'headroom_line')))
            yield '\n\n'
        l_0_table = environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'headroom')
        context.vars['table'] = l_0_table
        context.exported_vars.add('table')
        template = environment.get_template('_table.md.j2', '_predictors.md.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_0_table, 'view': l_0_view}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
        yield '\n'
        yield str(t_1(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'basis')))
        yield ' '
        yield str(t_1(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'trend')))
        yield '\n\n!['
        yield str(t_1(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'caption')))
        yield '](charts/'
        yield str(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'chart_stem'))
        yield '.'
        yield str((undefined(name='chart_format') if l_0_chart_format is missing else l_0_chart_format))
        yield ')\n\n'
        l_0_table = environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'ranks')
        context.vars['table'] = l_0_table
        context.exported_vars.add('table')
        template = environment.get_template('_table.md.j2', '_predictors.md.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_0_table, 'view': l_0_view}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
        yield '\n'
        for l_1_line in environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'association_lines'):
            _loop_vars = {}
            pass
            yield str(t_1(l_1_line))
            yield '\n\n'
        l_1_line = missing
        l_0_table = environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'association')
        context.vars['table'] = l_0_table
        context.exported_vars.add('table')
        template = environment.get_template('_table.md.j2', '_predictors.md.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_0_table, 'view': l_0_view}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
        yield '\n'

blocks = {}
debug_info = '2=21&3=23&4=27&6=29&7=33&10=36&11=38&14=40&15=43&17=50&19=54&21=60&22=63&24=70&25=73&28=76&29=79'