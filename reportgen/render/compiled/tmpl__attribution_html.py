# Generated from templates/_attribution.html.j2 by scripts/make_compiled_templates.py
KEY = 'a7f56c116e5c5b92957e5b11c78cd5e8545f884ebddc0419aec920a490ad3784'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_attribution.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_cells_by_kind = l_0_unanswerable = l_0_verdict_join = missing
    pass
    def macro():
        t_1 = []
        l_1_attribution = resolve('attribution')
        l_1_table = resolve('table')
        pass
        if (undefined(name='attribution') if l_1_attribution is missing else l_1_attribution):
            pass
            l_1_table = environment.getattr((undefined(name='attribution') if l_1_attribution is missing else l_1_attribution), 'kinds')
            template = environment.get_template('_table.html.j2', '_attribution.html.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_1_table, 'cells_by_kind': l_0_cells_by_kind, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
            try:
                for event in gen:
                    t_1.append(event)
            finally: gen.close()
        return concat(t_1)
    context.exported_vars.add('cells_by_kind')
    context.vars['cells_by_kind'] = l_0_cells_by_kind = Macro(environment, macro, 'cells_by_kind', (), False, False, False, context.eval_ctx.autoescape)
    def macro():
        t_2 = []
        l_1_attribution = resolve('attribution')
        l_1_table = resolve('table')
        pass
        if (undefined(name='attribution') if l_1_attribution is missing else l_1_attribution):
            pass
            t_2.extend((
                '<h3>Unanswerable questions: declined or answered (',
                escape(environment.getattr((undefined(name='attribution') if l_1_attribution is missing else l_1_attribution), 'run')),
                ')</h3>\n',
            ))
            l_1_table = environment.getattr((undefined(name='attribution') if l_1_attribution is missing else l_1_attribution), 'unanswerable')
            template = environment.get_template('_table.html.j2', '_attribution.html.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_1_table, 'cells_by_kind': l_0_cells_by_kind, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
            try:
                for event in gen:
                    t_2.append(event)
            finally: gen.close()
        return concat(t_2)
    context.exported_vars.add('unanswerable')
    context.vars['unanswerable'] = l_0_unanswerable = Macro(environment, macro, 'unanswerable', (), False, False, False, context.eval_ctx.autoescape)
    def macro():
        t_3 = []
        l_1_attribution = resolve('attribution')
        pass
        if (undefined(name='attribution') if l_1_attribution is missing else l_1_attribution):
            pass
            t_3.append(
                '<h3>Verdicts</h3>\n<ul class="note">\n',
            )
            for l_2_line in environment.getattr((undefined(name='attribution') if l_1_attribution is missing else l_1_attribution), 'join'):
                _loop_vars = {}
                pass
                t_3.extend((
                    '  <li>',
                    escape(l_2_line),
                    '</li>\n',
                ))
            l_2_line = missing
            t_3.append(
                '</ul>\n',
            )
        return concat(t_3)
    context.exported_vars.add('verdict_join')
    context.vars['verdict_join'] = l_0_verdict_join = Macro(environment, macro, 'verdict_join', (), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '2=12&3=17&4=19&5=20&8=29&9=34&10=38&11=41&12=42&15=51&16=55&19=60&20=65'