# Generated from templates/_comparisons.html.j2 by scripts/make_compiled_templates.py
KEY = 'c31eda450813ee7fe581d0a9f1e41690479f9412c974da7ad5317f4b83762495'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_comparisons.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_comparison_table = l_0_blocks = l_0_pairs_section = l_0_baseline_section = missing
    pass
    def macro(l_1_table):
        t_1 = []
        if l_1_table is missing:
            l_1_table = undefined("parameter 'table' was not provided", name='table')
        pass
        template = environment.get_template('_table.html.j2', '_comparisons.html.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_1_table, 'baseline_section': l_0_baseline_section, 'blocks': l_0_blocks, 'comparison_table': l_0_comparison_table, 'pairs_section': l_0_pairs_section}))
        try:
            for event in gen:
                t_1.append(event)
        finally: gen.close()
        return concat(t_1)
    context.exported_vars.add('comparison_table')
    context.vars['comparison_table'] = l_0_comparison_table = Macro(environment, macro, 'comparison_table', ('table',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_items):
        t_2 = []
        if l_1_items is missing:
            l_1_items = undefined("parameter 'items' was not provided", name='items')
        pass
        for l_2_block in l_1_items:
            l_2_per_question_file = resolve('per_question_file')
            _loop_vars = {}
            pass
            t_2.extend((
                '<details class="comparison">\n  <summary><h3>',
                escape(environment.getattr(l_2_block, 'title')),
                '</h3></summary>\n  <p class="note">',
                escape(environment.getattr(l_2_block, 'note')),
                '</p>\n  ',
                escape(context.call((undefined(name='comparison_table') if l_0_comparison_table is missing else l_0_comparison_table), environment.getattr(l_2_block, 'table'), _loop_vars=_loop_vars)),
                '\n',
            ))
            if environment.getattr(l_2_block, 'cells'):
                pass
                t_2.append(
                    escape(context.call((undefined(name='comparison_table') if l_0_comparison_table is missing else l_0_comparison_table), environment.getattr(l_2_block, 'cells'), _loop_vars=_loop_vars)),
                )
            if environment.getattr(l_2_block, 'cells_note'):
                pass
                t_2.extend((
                    '<p>',
                    escape(environment.getattr(l_2_block, 'cells_note')),
                    '</p>',
                ))
            if environment.getattr(l_2_block, 'changed_total'):
                pass
                t_2.extend((
                    '  <details class="changed"><summary>',
                    escape(environment.getattr(l_2_block, 'changed_summary')),
                    '</summary>\n  ',
                    escape(context.call((undefined(name='comparison_table') if l_0_comparison_table is missing else l_0_comparison_table), environment.getattr(l_2_block, 'changed'), _loop_vars=_loop_vars)),
                    '\n',
                ))
                if environment.getattr(l_2_block, 'changed_cut'):
                    pass
                    t_2.extend((
                        '<p class="note">',
                        escape(environment.getattr(l_2_block, 'changed_cut')),
                        ' questions that changed; every question\'s values are in <a href="',
                        escape((undefined(name='per_question_file') if l_2_per_question_file is missing else l_2_per_question_file)),
                        '">',
                        escape((undefined(name='per_question_file') if l_2_per_question_file is missing else l_2_per_question_file)),
                        '</a>.</p>',
                    ))
                t_2.append(
                    '  </details>\n',
                )
            else:
                pass
                t_2.append(
                    '  <p class="note">No question changed at this cutoff.</p>\n',
                )
            t_2.append(
                '</details>\n',
            )
        l_2_block = l_2_per_question_file = missing
        return concat(t_2)
    context.exported_vars.add('blocks')
    context.vars['blocks'] = l_0_blocks = Macro(environment, macro, 'blocks', ('items',), False, False, False, context.eval_ctx.autoescape)
    def macro():
        t_3 = []
        l_1_comparisons = resolve('comparisons')
        l_1_view = missing
        pass
        l_1_view = (undefined(name='comparisons') if l_1_comparisons is missing else l_1_comparisons)
        if environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'pairs'):
            pass
            t_3.extend((
                '<section id="comparisons" aria-labelledby="comparisons-title">\n  <h2 id="comparisons-title">Runs compared</h2>\n  <p class="note">',
                escape(environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'gold')),
                ' ',
                escape(environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'method')),
                '</p>\n',
            ))
            if environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'pairs_glance'):
                pass
                t_3.append(
                    escape(context.call((undefined(name='comparison_table') if l_0_comparison_table is missing else l_0_comparison_table), environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'pairs_glance'))),
                )
            t_3.extend((
                '  <p class="note">Open a pair for every measure, its interval and p-values, and the questions that changed.</p>\n  ',
                escape(context.call((undefined(name='blocks') if l_0_blocks is missing else l_0_blocks), environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'pairs'))),
                '\n</section>\n',
            ))
        return concat(t_3)
    context.exported_vars.add('pairs_section')
    context.vars['pairs_section'] = l_0_pairs_section = Macro(environment, macro, 'pairs_section', (), False, False, False, context.eval_ctx.autoescape)
    def macro():
        t_4 = []
        l_1_comparisons = resolve('comparisons')
        l_1_view = missing
        pass
        l_1_view = (undefined(name='comparisons') if l_1_comparisons is missing else l_1_comparisons)
        if environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'baseline_facts'):
            pass
            t_4.append(
                '<section id="baseline" aria-labelledby="baseline-title">\n  <h2 id="baseline-title">Against the baseline</h2>\n',
            )
            for l_2_fact in environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'baseline_facts'):
                _loop_vars = {}
                pass
                t_4.extend((
                    '  <p class="note">',
                    escape(l_2_fact),
                    '</p>\n',
                ))
            l_2_fact = missing
            if (environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'baseline_glance') and environment.getattr(environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'baseline_glance'), 'rows')):
                pass
                t_4.extend((
                    '  ',
                    escape(context.call((undefined(name='comparison_table') if l_0_comparison_table is missing else l_0_comparison_table), environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'baseline_glance'))),
                    '\n  <p class="note">',
                    escape(environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'baseline_note')),
                    '</p>\n',
                ))
            t_4.extend((
                '  ',
                escape(context.call((undefined(name='blocks') if l_0_blocks is missing else l_0_blocks), environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'baseline'))),
                '\n</section>\n',
            ))
        return concat(t_4)
    context.exported_vars.add('baseline_section')
    context.vars['baseline_section'] = l_0_baseline_section = Macro(environment, macro, 'baseline_section', (), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '2=12&3=17&5=26&6=31&8=37&9=39&10=41&11=44&12=49&13=56&14=60&15=62&16=65&24=91&25=96&26=97&29=101&30=106&32=113&36=119&37=124&38=125&41=130&42=135&44=139&45=143&46=145&48=150'