# Generated from templates/_transitions.html.j2 by scripts/make_compiled_templates.py
KEY = 'bb47182edb090ac4a55f7a3eef5b8dba3cf869159c3b9c54d33e5b2f4c01dd4e'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_transitions.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_transitions_matrix = l_0_ranked = l_0_transitions_section = missing
    try:
        t_1 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    def macro():
        t_2 = []
        l_1_transitions = resolve('transitions')
        l_1_anchor_changed = resolve('anchor_changed')
        l_1_report = resolve('report')
        l_1_view = missing
        pass
        l_1_view = (undefined(name='transitions') if l_1_transitions is missing else l_1_transitions)
        if (undefined(name='view') if l_1_view is missing else l_1_view):
            pass
            t_2.extend((
                '<div id="transitions" class="transitions">\n  <h3 id="transitions-title">Since the baseline</h3>\n  <div class="scroll">\n  <table class="transitions-matrix">\n    <caption>',
                escape(environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'caption')),
                '</caption>\n    <thead><tr><td></td>',
            ))
            for l_2_label in environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'columns'):
                _loop_vars = {}
                pass
                t_2.extend((
                    '<th scope="col">',
                    escape(l_2_label),
                    '</th>',
                ))
            l_2_label = missing
            t_2.append(
                '<th scope="col">baseline</th></tr></thead>\n    <tbody>\n',
            )
            for l_2_row in environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'rows'):
                _loop_vars = {}
                pass
                t_2.extend((
                    '      <tr><th scope="row">',
                    escape(environment.getattr(l_2_row, 'label')),
                    '</th>',
                ))
                for (l_3_count, l_3_css) in environment.getattr(l_2_row, 'counts'):
                    _loop_vars = {}
                    pass
                    t_2.append(
                        '<td',
                    )
                    if l_3_css:
                        pass
                        t_2.extend((
                            ' class="',
                            escape(l_3_css),
                            '"',
                        ))
                    t_2.extend((
                        '>',
                        escape(l_3_count),
                        '</td>',
                    ))
                l_3_count = l_3_css = missing
                t_2.extend((
                    '<td class="total">',
                    escape(environment.getattr(l_2_row, 'total')),
                    '</td></tr>\n',
                ))
            l_2_row = missing
            t_2.append(
                '      <tr class="total"><th scope="row">this report</th>',
            )
            for l_2_count in environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'column_totals'):
                _loop_vars = {}
                pass
                t_2.extend((
                    '<td>',
                    escape(l_2_count),
                    '</td>',
                ))
            l_2_count = missing
            t_2.extend((
                '<td></td></tr>\n    </tbody>\n  </table>\n  </div>\n  <p class="note">',
                escape(environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'summary')),
            ))
            for l_2_note in environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'notes'):
                _loop_vars = {}
                pass
                t_2.extend((
                    ' ',
                    escape(l_2_note),
                ))
            l_2_note = missing
            t_2.append(
                '</p>\n',
            )
            if environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'moves'):
                pass
                t_2.append(
                    '  <ul class="largest-moves">\n',
                )
                for l_2_move in environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'moves'):
                    _loop_vars = {}
                    pass
                    t_2.extend((
                        '    <li><strong>',
                        escape(environment.getattr(l_2_move, 'label')),
                        '</strong> (',
                        escape(environment.getattr(l_2_move, 'count')),
                        '): <span class="ids">',
                        escape(environment.getattr(l_2_move, 'ids')),
                        '</span>',
                    ))
                    if environment.getattr(l_2_move, 'flaky'):
                        pass
                        t_2.extend((
                            ' <span class="flaky">(',
                            escape(environment.getattr(l_2_move, 'flaky')),
                            ')</span>',
                        ))
                    if environment.getattr(l_2_move, 'test'):
                        pass
                        t_2.extend((
                            ' <span class="note">',
                            escape(environment.getattr(l_2_move, 'test')),
                            '</span>',
                        ))
                    t_2.append(
                        '</li>\n',
                    )
                l_2_move = missing
                t_2.extend((
                    '  </ul>\n  <p class="note"><a href="#',
                    escape((undefined(name='anchor_changed') if l_1_anchor_changed is missing else l_1_anchor_changed)),
                    '">Every moved question, both runs\' top ',
                    escape(environment.getattr((undefined(name='report') if l_1_report is missing else l_1_report), 'context_k')),
                    ' side by side</a></p>\n',
                ))
            t_2.append(
                '</div>\n',
            )
        return concat(t_2)
    context.exported_vars.add('transitions_matrix')
    context.vars['transitions_matrix'] = l_0_transitions_matrix = Macro(environment, macro, 'transitions_matrix', (), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_chunks):
        t_3 = []
        if l_1_chunks is missing:
            l_1_chunks = undefined("parameter 'chunks' was not provided", name='chunks')
        pass
        t_3.append(
            '<ol class="ranked">',
        )
        t_4 = 1
        for l_2_chunk in l_1_chunks:
            _loop_vars = {}
            pass
            t_3.append(
                '<li',
            )
            if environment.getattr(l_2_chunk, 'gold'):
                pass
                t_3.append(
                    ' class="gold"',
                )
            t_3.extend((
                '>',
                escape(environment.getattr(l_2_chunk, 'chunk_id')),
            ))
            if environment.getattr(l_2_chunk, 'change'):
                pass
                t_3.extend((
                    ' <span class="rank-change">',
                    escape(environment.getattr(l_2_chunk, 'change')),
                    '</span>',
                ))
            if environment.getattr(l_2_chunk, 'text'):
                pass
                t_3.extend((
                    '<p class="chunk-text">',
                    escape(environment.getattr(l_2_chunk, 'text')),
                    '</p>',
                ))
            t_3.append(
                '</li>',
            )
            t_4 = 0
        l_2_chunk = missing
        if t_4:
            pass
            t_3.append(
                '<li class="none">(nothing returned)</li>',
            )
        t_3.append(
            '</ol>',
        )
        return concat(t_3)
    context.exported_vars.add('ranked')
    context.vars['ranked'] = l_0_ranked = Macro(environment, macro, 'ranked', ('chunks',), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro():
        t_5 = []
        l_1_transitions = resolve('transitions')
        l_1_anchor_changed = resolve('anchor_changed')
        l_1_title_changed = resolve('title_changed')
        l_1_report = resolve('report')
        l_1_view = missing
        pass
        l_1_view = (undefined(name='transitions') if l_1_transitions is missing else l_1_transitions)
        if ((undefined(name='view') if l_1_view is missing else l_1_view) and environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'groups')):
            pass
            t_5.extend((
                '<section id="',
                escape((undefined(name='anchor_changed') if l_1_anchor_changed is missing else l_1_anchor_changed)),
                '" aria-labelledby="',
                escape((undefined(name='anchor_changed') if l_1_anchor_changed is missing else l_1_anchor_changed)),
                '-title">\n  <h2 id="',
                escape((undefined(name='anchor_changed') if l_1_anchor_changed is missing else l_1_anchor_changed)),
                '-title">',
                escape((undefined(name='title_changed') if l_1_title_changed is missing else l_1_title_changed)),
                '</h2>\n  <p class="note">',
                escape(environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'run')),
                ": the questions that moved since the baseline, by move. Open one to see both runs' top ",
                escape(environment.getattr((undefined(name='report') if l_1_report is missing else l_1_report), 'context_k')),
                ', gold chunks marked; ▲/▼ is how many ranks a chunk rose or fell, <em>new</em> a chunk the baseline did not send, <em>out</em> one it sent that is gone.',
            ))
            if environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'folded_note'):
                pass
                t_5.extend((
                    ' ',
                    escape(environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'folded_note')),
                ))
            t_5.append(
                '</p>\n',
            )
            for l_2_group in environment.getattr((undefined(name='view') if l_1_view is missing else l_1_view), 'groups'):
                _loop_vars = {}
                pass
                t_5.extend((
                    '  <details class="move">\n    <summary><strong>',
                    escape(environment.getattr(environment.getattr(l_2_group, 'move'), 'label')),
                    '</strong> (',
                    escape(environment.getattr(environment.getattr(l_2_group, 'move'), 'count')),
                    ')',
                ))
                if environment.getattr(environment.getattr(l_2_group, 'move'), 'test'):
                    pass
                    t_5.extend((
                        ' <span class="note">',
                        escape(environment.getattr(environment.getattr(l_2_group, 'move'), 'test')),
                        '</span>',
                    ))
                t_5.append(
                    '</summary>\n',
                )
                t_6 = 1
                for l_3_item in environment.getattr(l_2_group, 'questions'):
                    _loop_vars = {}
                    pass
                    t_5.extend((
                        '    <details class="side-by-side" id="changed-',
                        escape(environment.getattr(l_3_item, 'qid')),
                        '">\n      <summary>',
                        escape(environment.getattr(l_3_item, 'qid')),
                    ))
                    if environment.getattr(l_3_item, 'question'):
                        pass
                        t_5.extend((
                            ' · ',
                            escape(environment.getattr(l_3_item, 'question')),
                        ))
                    t_5.append(
                        '</summary>\n      <div class="pair">\n        <div><h4>baseline</h4>',
                    )
                    if t_1(environment.getattr(l_3_item, 'then')):
                        pass
                        t_5.append(
                            '<p class="note">not in the baseline\'s report.json</p>',
                        )
                    else:
                        pass
                        t_5.append(
                            escape(context.call((undefined(name='ranked') if l_0_ranked is missing else l_0_ranked), environment.getattr(l_3_item, 'then'), _loop_vars=_loop_vars)),
                        )
                    t_5.extend((
                        '</div>\n        <div><h4>this report</h4>',
                        escape(context.call((undefined(name='ranked') if l_0_ranked is missing else l_0_ranked), environment.getattr(l_3_item, 'now'), _loop_vars=_loop_vars)),
                    ))
                    if environment.getattr(l_3_item, 'dropped'):
                        pass
                        t_5.extend((
                            '<p class="note">out of the top ',
                            escape(environment.getattr((undefined(name='report') if l_1_report is missing else l_1_report), 'context_k')),
                            ':</p><ul class="ranked dropped">',
                        ))
                        for l_4_chunk in environment.getattr(l_3_item, 'dropped'):
                            _loop_vars = {}
                            pass
                            t_5.append(
                                '<li',
                            )
                            if environment.getattr(l_4_chunk, 'gold'):
                                pass
                                t_5.append(
                                    ' class="gold"',
                                )
                            t_5.extend((
                                '>',
                                escape(environment.getattr(l_4_chunk, 'chunk_id')),
                                '</li>',
                            ))
                        l_4_chunk = missing
                        t_5.append(
                            '</ul>',
                        )
                    t_5.append(
                        '</div>\n      </div>\n    </details>\n',
                    )
                    t_6 = 0
                l_3_item = missing
                if t_6:
                    pass
                    t_5.extend((
                        '    <p class="note">',
                        escape(environment.getattr(environment.getattr(l_2_group, 'move'), 'ids')),
                        '</p>\n',
                    ))
                t_5.append(
                    '  </details>\n',
                )
            l_2_group = missing
            t_5.append(
                '</section>\n',
            )
        return concat(t_5)
    context.exported_vars.add('transitions_section')
    context.vars['transitions_section'] = l_0_transitions_section = Macro(environment, macro, 'transitions_section', (), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '3=18&4=25&5=26&10=30&11=33&13=45&14=50&16=81&20=92&21=105&23=110&24=115&27=142&33=154&35=209&36=217&37=218&38=222&39=226&40=230&41=244&43=249&44=265&45=270&46=272&48=283&49=295&53=333'