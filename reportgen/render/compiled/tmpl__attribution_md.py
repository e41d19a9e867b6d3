# Generated from templates/_attribution.md.j2 by scripts/make_compiled_templates.py
KEY = '6a2bc057b93d098dda003acfea37cc08d1c1aee3aee4e32277b44f9f6797b918'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_attribution.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_cells_by_kind = l_0_unanswerable = l_0_verdict_join = missing
    try:
        t_1 = environment.filters['md']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'md' found.")
    pass
    def macro():
        t_2 = []
        l_1_attribution = resolve('attribution')
        l_1_table = resolve('table')
        pass
        if (undefined(name='attribution') if l_1_attribution is missing else l_1_attribution):
            pass
            t_2.extend((
                '\n**',
                str(t_1(environment.getattr(environment.getattr((undefined(name='attribution') if l_1_attribution is missing else l_1_attribution), 'kinds'), 'caption'))),
                '**\n\n',
            ))
            l_1_table = environment.getattr((undefined(name='attribution') if l_1_attribution is missing else l_1_attribution), 'kinds')
            template = environment.get_template('_table.md.j2', '_attribution.md.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_1_table, 'cells_by_kind': l_0_cells_by_kind, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
            try:
                for event in gen:
                    t_2.append(event)
            finally: gen.close()
        return concat(t_2)
    context.exported_vars.add('cells_by_kind')
    context.vars['cells_by_kind'] = l_0_cells_by_kind = Macro(environment, macro, 'cells_by_kind', (), False, False, False, context.eval_ctx.autoescape)
    def macro():
        t_3 = []
        l_1_attribution = resolve('attribution')
        l_1_table = resolve('table')
        pass
        if (undefined(name='attribution') if l_1_attribution is missing else l_1_attribution):
            pass
            t_3.extend((
                '\n### Unanswerable questions: declined or answered (',
                str(t_1(environment.getattr((undefined(name='attribution') if l_1_attribution is missing else l_1_attribution), 'run'))),
                ')\n\n',
            ))
            l_1_table = environment.getattr((undefined(name='attribution') if l_1_attribution is missing else l_1_attribution), 'unanswerable')
            template = environment.get_template('_table.md.j2', '_attribution.md.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_1_table, 'cells_by_kind': l_0_cells_by_kind, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
            try:
                for event in gen:
                    t_3.append(event)
            finally: gen.close()
        return concat(t_3)
    context.exported_vars.add('unanswerable')
    context.vars['unanswerable'] = l_0_unanswerable = Macro(environment, macro, 'unanswerable', (), False, False, False, context.eval_ctx.autoescape)
    def macro():
        t_4 = []
        l_1_attribution = resolve('attribution')
        pass
        if (undefined(name='attribution') if l_1_attribution is missing else l_1_attribution):
            pass
            t_4.append(
                '\n### Verdicts\n\n',
            )
            for l_2_line in environment.getattr((undefined(name='attribution') if l_1_attribution is missing else l_1_attribution), 'join'):
                _loop_vars = {}
                pass
                t_4.extend((
                    '- ',
                    str(t_1(l_2_line)),
                    '\n',
                ))
            l_2_line = missing
        return concat(t_4)
    context.exported_vars.add('verdict_join')
    context.vars['verdict_join'] = l_0_verdict_join = Macro(environment, macro, 'verdict_join', (), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '2=18&3=23&5=27&7=30&8=31&11=40&12=45&14=49&16=52&17=53&20=62&21=66&25=71&26=76'