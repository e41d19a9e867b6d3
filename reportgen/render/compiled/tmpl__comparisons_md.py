# Generated from templates/_comparisons.md.j2 by scripts/make_compiled_templates.py
KEY = 'c75586fc6bd39b341e7ff7bda1e34755a67d5f67f3b14063dbb62c4dd1d647a5'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_comparisons.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_md_table = l_0_blocks = l_0_pairs_section = l_0_baseline_section = missing
    try:
        t_1 = environment.filters['md']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'md' found.")
    pass
    def macro(l_1_table):
        t_2 = []
        if l_1_table is missing:
            l_1_table = undefined("parameter 'table' was not provided", name='table')
        pass
        template = environment.get_template('_table.md.j2', '_comparisons.md.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_1_table, 'baseline_section': l_0_baseline_section, 'blocks': l_0_blocks, 'md_table': l_0_md_table, 'pairs_section': l_0_pairs_section}))
        try:
            for event in gen:
                t_2.append(event)
        finally: gen.close()
        return concat(t_2)
    context.exported_vars.add('md_table')
    context.vars['md_table'] = l_0_md_table = Macro(environment, macro, 'md_table', ('table',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_items):
        t_3 = []
        if l_1_items is missing:
            l_1_items = undefined("parameter 'items' was not provided", name='items')
        pass
        for l_2_block in l_1_items:
            l_2_per_question_file = resolve('per_question_file')
            _loop_vars = {}
            pass
            t_3.extend((
                '\n### ',
                str(t_1(environment.getattr(l_2_block, 'title'))),
                '\n\n',
                str(t_1(environment.getattr(l_2_block, 'note'))),
                '\n\n',
                str(context.call((undefined(name='md_table') if l_0_md_table is missing else l_0_md_table), environment.getattr(l_2_block, 'table'), _loop_vars=_loop_vars)),
                '\n',
            ))
            if environment.getattr(l_2_block, 'cells'):
                pass
                t_3.extend((
                    '\n**',
                    str(t_1(environment.getattr(environment.getattr(l_2_block, 'cells'), 'caption'))),
                    '**\n\n',
                    str(context.call((undefined(name='md_table') if l_0_md_table is missing else l_0_md_table), environment.getattr(l_2_block, 'cells'), _loop_vars=_loop_vars)),
                    '\n',
                ))
                if environment.getattr(l_2_block, 'cells_note'):
                    pass
                    t_3.extend((
                        '\n',
                        str(t_1(environment.getattr(l_2_block, 'cells_note'))),
                        '\n',
                    ))
            if environment.getattr(l_2_block, 'changed_total'):
                pass
                t_3.extend((
                    '\n<details><summary>',
                    str(environment.getattr(l_2_block, 'changed_summary')),
                    '</summary>\n\n',
                    str(context.call((undefined(name='md_table') if l_0_md_table is missing else l_0_md_table), environment.getattr(l_2_block, 'changed'), _loop_vars=_loop_vars)),
                    '\n',
                ))
                if environment.getattr(l_2_block, 'changed_cut'):
                    pass
                    t_3.extend((
                        str(environment.getattr(l_2_block, 'changed_cut')),
                        "; every question's values are in [",
                        str(t_1((undefined(name='per_question_file') if l_2_per_question_file is missing else l_2_per_question_file))),
                        '](',
                        str((undefined(name='per_question_file') if l_2_per_question_file is missing else l_2_per_question_file)),
                        ').\n',
                    ))
                t_3.append(
                    '\n</details>\n',
                )
            else:
                pass
                t_3.append(
                    '\nNo question changed at this cutoff.\n',
                )
        l_2_block = l_2_per_question_file = missing
        return concat(t_3)
    context.exported_vars.add('blocks')
    context.vars['blocks'] = l_0_blocks = Macro(environment, macro, 'blocks', ('items',), False, False, False, context.eval_ctx.autoescape)
    def macro():
        t_4 = []
        l_1_comparisons = resolve('comparisons')
        l_1_view = missing
        pass
        l_1_view = (undefined(name='comparisons') if l_1_comparisons is missing else l_1_comparisons)
        if environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'pairs'):
            pass
            t_4.extend((
                '## Runs compared\n\n',
                str(t_1(environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'gold'))),
                ' ',
                str(t_1(environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'method'))),
                '\n',
                str(context.call((undefined(name='blocks') if l_0_blocks is missing else l_0_blocks), environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'pairs'))),
                '\n\n',
            ))
        return concat(t_4)
    context.exported_vars.add('pairs_section')
    context.vars['pairs_section'] = l_0_pairs_section = Macro(environment, macro, 'pairs_section', (), False, False, False, context.eval_ctx.autoescape)
    def macro():
        t_5 = []
        l_1_comparisons = resolve('comparisons')
        l_1_view = missing
        pass
        l_1_view = (undefined(name='comparisons') if l_1_comparisons is missing else l_1_comparisons)
        if environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'baseline_facts'):
            pass
            t_5.append(
                '## Against the baseline\n\n',
            )
            for l_2_fact in environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'baseline_facts'):
                _loop_vars = {}
                pass
                t_5.extend((
                    str(t_1(l_2_fact)),
                    '\n\n',
                ))
            l_2_fact = missing
            if (environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'baseline_glance') and environment.getattr(environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'baseline_glance'), 'rows')):
                pass
                t_5.extend((
                    '**',
                    str(t_1(environment.getattr(environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'baseline_glance'), 'caption'))),
                    '**\n\n',
                    str(context.call((undefined(name='md_table') if l_0_md_table is missing else l_0_md_table), environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'baseline_glance'))),
                    '\n\n',
                    str(t_1(environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'baseline_note'))),
                    '\n\n',
                ))
            t_5.extend((
                str(context.call((undefined(name='blocks') if l_0_blocks is missing else l_0_blocks), environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'baseline'))),
                '\n\n',
            ))
        return concat(t_5)
    context.exported_vars.add('baseline_section')
    context.vars['baseline_section'] = l_0_baseline_section = Macro(environment, macro, 'baseline_section', (), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '1=18&2=23&4=32&5=37&7=43&9=45&11=47&12=50&14=54&16=56&17=59&19=63&22=66&24=70&26=72&27=75&28=78&38=97&39=102&40=103&43=107&44=111&48=117&49=122&50=123&53=128&54=132&57=136&58=140&60=142&62=144&65=148'