# Generated from templates/_transitions.md.j2 by scripts/make_compiled_templates.py
KEY = 'b6b2d3dd719f6ad121e9a432dee2887f32e42808aa09e12bb1ec281f6b8e5bb8'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_transitions.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_transitions_md = missing
    try:
        t_1 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_2 = environment.filters['md']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'md' found.")
    pass
    def macro(l_1_heading, l_1_moves_shown, l_1_elsewhere):
        t_3 = []
        l_1_transitions = resolve('transitions')
        l_1_view = missing
        if l_1_heading is missing:
            l_1_heading = '####'
        if l_1_moves_shown is missing:
            l_1_moves_shown = 6
        if l_1_elsewhere is missing:
            l_1_elsewhere = 'in the full report'
        pass
        l_1_view = (undefined(name='transitions') if l_1_transitions is missing else l_1_transitions)
        if (undefined(name='view') if l_1_view is missing else l_1_view):
            pass
            t_3.extend((
                '\n',
                str(l_1_heading),
                ' Since the baseline: ',
                str(t_2(environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'run'))),
                '\n\n**',
                str(t_2(environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'caption'))),
                '**\n\n| baseline ↓ · this report → |',
            ))
            for l_2_label in environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'columns'):
                _loop_vars = {}
                pass
                t_3.extend((
                    ' ',
                    str(t_2(l_2_label)),
                    ' |',
                ))
            l_2_label = missing
            t_3.append(
                ' baseline |\n| --- |',
            )
            for l_2_label in environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'columns'):
                _loop_vars = {}
                pass
                t_3.append(
                    ' ---: |',
                )
            l_2_label = missing
            t_3.append(
                ' ---: |\n',
            )
            for l_2_row in environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'rows'):
                _loop_vars = {}
                pass
                t_3.extend((
                    '| ',
                    str(t_2(environment.getattr(l_2_row, 'label'))),
                    ' |',
                ))
                for (l_3_count, l_3_css) in environment.getattr(l_2_row, 'counts'):
                    _loop_vars = {}
                    pass
                    t_3.append(
                        ' ',
                    )
                    if (l_3_css == 'moved'):
                        pass
                        t_3.extend((
                            '**',
                            str(l_3_count),
                            '**',
                        ))
                    else:
                        pass
                        t_3.append(
                            str(l_3_count),
                        )
                    t_3.append(
                        ' |',
                    )
                l_3_count = l_3_css = missing
                t_3.extend((
                    ' ',
                    str(environment.getattr(l_2_row, 'total')),
                    ' |\n',
                ))
            l_2_row = missing
            t_3.append(
                '| this report |',
            )
            for l_2_count in environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'column_totals'):
                _loop_vars = {}
                pass
                t_3.extend((
                    ' ',
                    str(l_2_count),
                    ' |',
                ))
            l_2_count = missing
            t_3.extend((
                ' |\n\n',
                str(t_2(environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'summary'))),
            ))
            for l_2_note in environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'notes'):
                _loop_vars = {}
                pass
                t_3.extend((
                    ' ',
                    str(t_2(l_2_note)),
                ))
            l_2_note = missing
            t_3.append(
                '\n',
            )
            if environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'groups'):
                pass
                t_3.extend((
                    '\n',
                    str(l_1_heading),
                    ' Questions that moved since the baseline\n\n',
                ))
                for l_2_group in environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'groups')[:l_1_moves_shown]:
                    _loop_vars = {}
                    pass
                    t_3.extend((
                        '- **',
                        str(t_2(environment.getattr(environment.getattr(l_2_group, 'move'), 'label'))),
                        '** (',
                        str(environment.getattr(environment.getattr(l_2_group, 'move'), 'count')),
                        '): ',
                        str(t_2(environment.getattr(environment.getattr(l_2_group, 'move'), 'ids'))),
                    ))
                    if environment.getattr(environment.getattr(l_2_group, 'move'), 'flaky'):
                        pass
                        t_3.extend((
                            ' (',
                            str(t_2(environment.getattr(environment.getattr(l_2_group, 'move'), 'flaky'))),
                            ')',
                        ))
                    if environment.getattr(environment.getattr(l_2_group, 'move'), 'test'):
                        pass
                        t_3.extend((
                            ' · ',
                            str(t_2(environment.getattr(environment.getattr(l_2_group, 'move'), 'test'))),
                        ))
                    t_3.append(
                        '\n',
                    )
                l_2_group = missing
                if (t_1(environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'groups')) > l_1_moves_shown):
                    pass
                    t_3.extend((
                        '- … and ',
                        str((t_1(environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'groups')) - l_1_moves_shown)),
                        ' smaller moves ',
                        str(l_1_elsewhere),
                        '\n',
                    ))
        return concat(t_3)
    context.exported_vars.add('transitions_md')
    context.vars['transitions_md'] = l_0_transitions_md = Macro(environment, macro, 'transitions_md', ('heading', 'moves_shown', 'elsewhere'), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '3=24&4=35&5=36&7=40&9=44&11=47&12=59&13=69&14=74&16=108&18=119&20=132&22=136&24=139&25=144&28=167&29=171'