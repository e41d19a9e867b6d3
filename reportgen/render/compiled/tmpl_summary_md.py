# Generated from templates/summary.md.j2 by scripts/make_compiled_templates.py
KEY = '7b0f03a4aed2667e36d84731044ce5e29a402b9d4d80d852ed77fc1a04030a5f'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'summary.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_marker = resolve('marker')
    l_0_report = resolve('report')
    l_0_gold_version = resolve('gold_version')
    l_0_gold = resolve('gold')
    l_0_questions_counted = resolve('questions_counted')
    l_0_context_k_words = resolve('context_k_words')
    l_0_context_notes = resolve('context_notes')
    l_0_gate_passed = resolve('gate_passed')
    l_0_screen = resolve('screen')
    l_0_gate_failed = resolve('gate_failed')
    l_0_gate_passed_rules = resolve('gate_passed_rules')
    l_0_gate_passed_summary = resolve('gate_passed_summary')
    l_0_drops_shown = resolve('drops_shown')
    l_0_drops_folded = resolve('drops_folded')
    l_0_replicates = resolve('replicates')
    l_0_cells = resolve('cells')
    l_0_cells_sent = resolve('cells_sent')
    l_0_cell_names = resolve('cell_names')
    l_0_judge_trials = resolve('judge_trials')
    l_0_attention_lines = resolve('attention_lines')
    l_0_alerts = resolve('alerts')
    l_0_slices_moved = resolve('slices_moved')
    l_0_drilldown = resolve('drilldown')
    l_0_drilldown_url = resolve('drilldown_url')
    l_0_report_place = resolve('report_place')
    l_0_transitions = resolve('transitions')
    l_0_transitions_moves = resolve('transitions_moves')
    l_0_warning_groups = resolve('warning_groups')
    l_0_baseline = resolve('baseline')
    l_0_baseline_summary = resolve('baseline_summary')
    l_0_baseline_facts = resolve('baseline_facts')
    l_0_baseline_glance = resolve('baseline_glance')
    l_0_table = resolve('table')
    l_0_baseline_note = resolve('baseline_note')
    l_0_others_summary = resolve('others_summary')
    l_0_pairs_glance = resolve('pairs_glance')
    l_0_pairs_summary = resolve('pairs_summary')
    l_0_pairs_note = resolve('pairs_note')
    l_0_latency = resolve('latency')
    l_0_limit = resolve('limit')
    l_0_recall_chart = resolve('recall_chart')
    l_0_recall_header = resolve('recall_header')
    l_0_recall_rows = resolve('recall_rows')
    l_0_glossary = resolve('glossary')
    l_0_glossary_url = resolve('glossary_url')
    l_0_full_report = l_0_notes = l_0_transitions_md = missing
    try:
        t_1 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_2 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_3 = environment.filters['md']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'md' found.")
    try:
        t_4 = environment.filters['summary_text']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'summary_text' found.")
    try:
        t_5 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    yield str((undefined(name='marker') if l_0_marker is missing else l_0_marker))
    yield '\n'
    def macro(l_1_where):
        t_6 = []
        l_1_report_url = resolve('report_url')
        if l_1_where is missing:
            l_1_where = False
        pass
        if (undefined(name='report_url') if l_1_report_url is missing else l_1_report_url):
            pass
            t_6.extend((
                '[full report](',
                str((undefined(name='report_url') if l_1_report_url is missing else l_1_report_url)),
                ')',
            ))
        elif l_1_where:
            pass
            t_6.extend((
                'full report: ',
                str(t_3((undefined(name='report_place') if l_0_report_place is missing else l_0_report_place))),
            ))
        else:
            pass
            t_6.append(
                'full report',
            )
        return concat(t_6)
    context.exported_vars.add('full_report')
    context.vars['full_report'] = l_0_full_report = Macro(environment, macro, 'full_report', ('where',), False, False, False, context.eval_ctx.autoescape)
    yield '### Retrieval report '
    yield str(t_3(environment.getattr((undefined(name='report') if l_0_report is missing else l_0_report), 'version')))
    yield '\n\nGold set '
    yield str(t_3((undefined(name='gold_version') if l_0_gold_version is missing else l_0_gold_version)))
    yield ' (fingerprint `'
    yield str(t_3(environment.getattr((undefined(name='gold') if l_0_gold is missing else l_0_gold), 'fingerprint')))
    yield '`), '
    yield str((undefined(name='questions_counted') if l_0_questions_counted is missing else l_0_questions_counted))
    yield ' ('
    yield str(environment.getattr((undefined(name='gold') if l_0_gold is missing else l_0_gold), 'answerable'))
    yield ' with relevant passages, '
    yield str(environment.getattr((undefined(name='gold') if l_0_gold is missing else l_0_gold), 'unanswerable'))
    yield ' unanswerable) · '
    yield str(t_3((undefined(name='context_k_words') if l_0_context_k_words is missing else l_0_context_k_words)))
    yield ' · reportgen '
    yield str(t_3(environment.getattr((undefined(name='report') if l_0_report is missing else l_0_report), 'tool_version')))
    yield ' · '
    yield str(t_3(environment.getattr((undefined(name='report') if l_0_report is missing else l_0_report), 'created')))
    yield ' · '
    yield str(context.call((undefined(name='full_report') if l_0_full_report is missing else l_0_full_report), where=True))
    yield '\n'
    for l_1_note in (undefined(name='context_notes') if l_0_context_notes is missing else l_0_context_notes):
        _loop_vars = {}
        pass
        yield '\n> '
        yield str(t_3(l_1_note))
        yield '\n'
    l_1_note = missing
    if (not t_5((undefined(name='gate_passed') if l_0_gate_passed is missing else l_0_gate_passed))):
        pass
        yield '\n#### '
        yield str(t_3(environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'title')))
        yield ' '
        yield str(environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'badge'))
        yield '\n\n'
        for l_1_message in environment.getattr((undefined(name='gate_failed') if l_0_gate_failed is missing else l_0_gate_failed), 'items'):
            _loop_vars = {}
            pass
            yield '- ❌ '
            yield str(t_3(l_1_message))
            yield '\n'
        l_1_message = missing
        if environment.getattr((undefined(name='gate_failed') if l_0_gate_failed is missing else l_0_gate_failed), 'more'):
            pass
            yield '- … and '
            yield str(environment.getattr((undefined(name='gate_failed') if l_0_gate_failed is missing else l_0_gate_failed), 'more'))
            yield ' more failed in the '
            yield str(context.call((undefined(name='full_report') if l_0_full_report is missing else l_0_full_report)))
            yield '\n'
        if environment.getattr((undefined(name='gate_passed_rules') if l_0_gate_passed_rules is missing else l_0_gate_passed_rules), 'items'):
            pass
            yield '\n<details><summary>'
            yield str((undefined(name='gate_passed_summary') if l_0_gate_passed_summary is missing else l_0_gate_passed_summary))
            yield '</summary>\n\n'
            for l_1_message in environment.getattr((undefined(name='gate_passed_rules') if l_0_gate_passed_rules is missing else l_0_gate_passed_rules), 'items'):
                _loop_vars = {}
                pass
                yield '- ✅ '
                yield str(t_3(l_1_message))
                yield '\n'
            l_1_message = missing
            if environment.getattr((undefined(name='gate_passed_rules') if l_0_gate_passed_rules is missing else l_0_gate_passed_rules), 'more'):
                pass
                yield '- … and '
                yield str(environment.getattr((undefined(name='gate_passed_rules') if l_0_gate_passed_rules is missing else l_0_gate_passed_rules), 'more'))
                yield ' more in the '
                yield str(context.call((undefined(name='full_report') if l_0_full_report is missing else l_0_full_report)))
                yield '\n'
            yield '\n</details>\n'
        if environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'notice'):
            pass
            if (environment.getattr((undefined(name='gate_failed') if l_0_gate_failed is missing else l_0_gate_failed), 'items') or environment.getattr((undefined(name='gate_passed_rules') if l_0_gate_passed_rules is missing else l_0_gate_passed_rules), 'items')):
                pass
                yield '\n'
            yield '> [!NOTE]\n> '
            yield str(t_3(environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'notice')))
            yield '\n'
    yield '\n#### '
    yield str(t_3(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'title')))
    yield '\n\n'
    yield str(t_3(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'why_short')))
    yield '\n\n| measure | value | 95% interval |'
    if environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'verdict'):
        pass
        yield ' against the baseline |'
    yield '\n| --- | ---: | ---: |'
    if environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'verdict'):
        pass
        yield ' --- |'
    yield '\n'
    for l_1_figure in environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'figures'):
        _loop_vars = {}
        pass
        yield '| '
        yield str(t_3(environment.getattr(l_1_figure, 'label')))
        yield ' | **'
        yield str(t_3(environment.getattr(l_1_figure, 'value')))
        yield '** | '
        yield str(t_3(environment.getattr(l_1_figure, 'interval')))
        yield ' |'
        if environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'verdict'):
            pass
            yield ' '
            yield str(t_3(environment.getattr(l_1_figure, 'change')))
            yield ': **'
            yield str(t_3(environment.getattr(l_1_figure, 'verdict')))
            yield '** |'
        yield '\n'
    l_1_figure = missing
    l_0_notes = environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'notes')
    context.vars['notes'] = l_0_notes
    context.exported_vars.add('notes')
    if environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'drops'):
        pass
        yield '\nLarge drops against the baseline, whatever the test says: '
        l_1_loop = missing
        for l_1_drop, l_1_loop in LoopContext((undefined(name='drops_shown') if l_0_drops_shown is missing else l_0_drops_shown), undefined):
            _loop_vars = {}
            pass
            if (environment.getattr(l_1_drop, 'mark') == 'worse'):
                pass
                yield '🔴'
            else:
                pass
                yield '🟠'
            yield ' '
            yield str(t_3(environment.getattr(l_1_drop, 'text')))
            yield ' (**'
            yield str(t_3(environment.getattr(l_1_drop, 'mark')))
            yield '**)'
            if (not environment.getattr(l_1_loop, 'last')):
                pass
                yield '; '
        l_1_loop = l_1_drop = missing
        if (undefined(name='drops_folded') if l_0_drops_folded is missing else l_0_drops_folded):
            pass
            yield '; '
            yield str((t_2((undefined(name='drops_folded') if l_0_drops_folded is missing else l_0_drops_folded)) + environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'drops_more')))
            yield ' more below'
        yield '.\n'
    if environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'clustered'):
        pass
        yield '\n'
        yield str(t_3(environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'clustered')))
        yield '\n'
    if (undefined(name='replicates') if l_0_replicates is missing else l_0_replicates):
        pass
        yield '\n'
        yield str(t_3((undefined(name='replicates') if l_0_replicates is missing else l_0_replicates)))
        yield '\n'
    if (undefined(name='cells') if l_0_cells is missing else l_0_cells):
        pass
        yield '\n#### The four cells ('
        yield str(t_3((undefined(name='cells_sent') if l_0_cells_sent is missing else l_0_cells_sent)))
        yield ')\n\n| run |'
        for l_1_name in (undefined(name='cell_names') if l_0_cell_names is missing else l_0_cell_names):
            _loop_vars = {}
            pass
            yield ' '
            yield str(l_1_name)
            yield ' |'
        l_1_name = missing
        yield ' pass rate |\n| --- |'
        for l_1_name in (undefined(name='cell_names') if l_0_cell_names is missing else l_0_cell_names):
            _loop_vars = {}
            pass
            yield ' ---: |'
        l_1_name = missing
        yield ' ---: |\n'
        for l_1_row in (undefined(name='cells') if l_0_cells is missing else l_0_cells):
            _loop_vars = {}
            pass
            yield '| '
            yield str(t_3(environment.getattr(l_1_row, 'run')))
            yield ' |'
            for l_2_count in environment.getattr(l_1_row, 'counts'):
                _loop_vars = {}
                pass
                yield ' '
                yield str(l_2_count)
                yield ' |'
            l_2_count = missing
            yield ' '
            yield str(environment.getattr(l_1_row, 'pass_rate'))
            yield ' |\n'
        l_1_row = missing
        if (undefined(name='judge_trials') if l_0_judge_trials is missing else l_0_judge_trials):
            pass
            yield '\n'
            yield str(t_3((undefined(name='judge_trials') if l_0_judge_trials is missing else l_0_judge_trials)))
            yield '\n'
        for l_1_row in (undefined(name='cells') if l_0_cells is missing else l_0_cells):
            _loop_vars = {}
            pass
            yield '\n**'
            yield str(t_3(environment.getattr(l_1_row, 'run')))
            yield '**: '
            yield str(t_3(environment.getattr(l_1_row, 'conclusion')))
            yield '.'
            if environment.getattr(l_1_row, 'headroom'):
                pass
                yield ' '
                yield str(t_3(environment.getattr(l_1_row, 'headroom')))
        l_1_row = missing
    if (undefined(name='attention_lines') if l_0_attention_lines is missing else l_0_attention_lines):
        pass
        yield '\n'
        for l_1_line in (undefined(name='attention_lines') if l_0_attention_lines is missing else l_0_attention_lines):
            _loop_vars = {}
            pass
            yield '- '
            yield str(t_3(l_1_line))
            yield '\n'
        l_1_line = missing
    if environment.getattr((undefined(name='alerts') if l_0_alerts is missing else l_0_alerts), 'items'):
        pass
        yield '\n> [!CAUTION]\n'
        l_1_loop = missing
        for l_1_message, l_1_loop in LoopContext(environment.getattr((undefined(name='alerts') if l_0_alerts is missing else l_0_alerts), 'items'), undefined):
            _loop_vars = {}
            pass
            yield '> '
            yield str(t_3(l_1_message))
            yield '\n'
            if (not environment.getattr(l_1_loop, 'last')):
                pass
                yield '>\n'
        l_1_loop = l_1_message = missing
        if environment.getattr((undefined(name='alerts') if l_0_alerts is missing else l_0_alerts), 'more'):
            pass
            yield '> … and '
            yield str(environment.getattr((undefined(name='alerts') if l_0_alerts is missing else l_0_alerts), 'more'))
            yield ' more in the '
            yield str(context.call((undefined(name='full_report') if l_0_full_report is missing else l_0_full_report)))
            yield '\n'
    if (undefined(name='slices_moved') if l_0_slices_moved is missing else l_0_slices_moved):
        pass
        yield '\n'
        for l_1_line in (undefined(name='slices_moved') if l_0_slices_moved is missing else l_0_slices_moved):
            _loop_vars = {}
            pass
            yield '- slice moved: '
            yield str(t_3(l_1_line))
            yield '\n'
        l_1_line = missing
    if (undefined(name='drops_folded') if l_0_drops_folded is missing else l_0_drops_folded):
        pass
        yield '\n<details><summary>Every large drop against the baseline ('
        yield str((t_2(environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'drops')) + environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'drops_more')))
        yield ')</summary>\n\n'
        for l_1_drop in environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'drops'):
            _loop_vars = {}
            pass
            yield '- '
            if (environment.getattr(l_1_drop, 'mark') == 'worse'):
                pass
                yield '🔴'
            else:
                pass
                yield '🟠'
            yield ' '
            yield str(t_3(environment.getattr(l_1_drop, 'text')))
            yield ': **'
            yield str(t_3(environment.getattr(l_1_drop, 'mark')))
            yield '**\n'
        l_1_drop = missing
        if environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'drops_more'):
            pass
            yield '- … and '
            yield str(environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'drops_more'))
            yield ' more in the '
            yield str(context.call((undefined(name='full_report') if l_0_full_report is missing else l_0_full_report)))
            yield '\n'
        yield '\n</details>\n'
    if (undefined(name='cells') if l_0_cells is missing else l_0_cells):
        pass
        yield '\n<details><summary>The four cells in detail: the questions of each failure cell, the pass rate by how much gold was sent, what "retrieved" means</summary>\n'
        l_1_loop = missing
        for l_1_row, l_1_loop in LoopContext((undefined(name='cells') if l_0_cells is missing else l_0_cells), undefined):
            _loop_vars = {}
            pass
            yield '\n**'
            yield str(t_3(environment.getattr(l_1_row, 'run')))
            yield '**: '
            yield str(t_3(environment.getattr(l_1_row, 'coverage')))
            yield ' '
            yield str(t_3(environment.getattr(l_1_row, 'rule_note')))
            yield '\n'
            if environment.getattr(l_1_row, 'stale_note'):
                pass
                yield '\n'
                yield str(t_3(environment.getattr(l_1_row, 'stale_note')))
                yield '\n'
            yield '\n'
            l_2_loop = missing
            for (l_2_name, l_2_listed), l_2_loop in LoopContext(environment.getattr(l_1_row, 'lists'), undefined):
                _loop_vars = {}
                pass
                yield '- '
                yield str(l_2_name)
                yield ': '
                l_3_loop = missing
                for l_3_qid, l_3_loop in LoopContext(environment.getattr(l_2_listed, 'items'), undefined):
                    _loop_vars = {}
                    pass
                    yield str(t_3(l_3_qid))
                    if (not environment.getattr(l_3_loop, 'last')):
                        pass
                        yield ', '
                l_3_loop = l_3_qid = missing
                if environment.getattr(l_2_listed, 'more'):
                    pass
                    yield ', … and '
                    yield str(environment.getattr(l_2_listed, 'more'))
                    yield ' more ('
                    yield str(context.call((undefined(name='full_report') if l_0_full_report is missing else l_0_full_report), _loop_vars=_loop_vars))
                    yield ')'
                yield '\n'
            l_2_loop = l_2_name = l_2_listed = missing
        l_1_loop = l_1_row = missing
        if (undefined(name='drilldown') if l_0_drilldown is missing else l_0_drilldown):
            pass
            yield '\n'
            yield str(t_3((undefined(name='drilldown') if l_0_drilldown is missing else l_0_drilldown)))
            yield ': '
            if (undefined(name='drilldown_url') if l_0_drilldown_url is missing else l_0_drilldown_url):
                pass
                yield '[in the full report]('
                yield str((undefined(name='drilldown_url') if l_0_drilldown_url is missing else l_0_drilldown_url))
                yield ')'
            else:
                pass
                yield 'in the full report, '
                yield str(t_3((undefined(name='report_place') if l_0_report_place is missing else l_0_report_place)))
            yield '.\n'
        yield '\n</details>\n'
    included_template = environment.get_template('_transitions.md.j2', 'summary.md.j2').make_module(context.get_all(), True, {'full_report': l_0_full_report, 'notes': l_0_notes, 'table': l_0_table, 'transitions_md': l_0_transitions_md})
    l_0_transitions_md = getattr(included_template, 'transitions_md', missing)
    if l_0_transitions_md is missing:
        l_0_transitions_md = undefined(f"the template {included_template.__name__!r} (imported on line 155 in 'summary.md.j2') does not export the requested name 'transitions_md'", name='transitions_md')
    context.vars['transitions_md'] = l_0_transitions_md
    context.exported_vars.discard('transitions_md')
    if (undefined(name='transitions') if l_0_transitions is missing else l_0_transitions):
        pass
        yield '\n<details><summary>Since the baseline, '
        yield str(t_4(environment.getattr((undefined(name='transitions') if l_0_transitions is missing else l_0_transitions), 'run')))
        yield ': '
        yield str(t_4(context.call(environment.getattr(environment.getattr((undefined(name='transitions') if l_0_transitions is missing else l_0_transitions), 'summary'), 'rstrip'), '.')))
        yield '; the matrix and every move</summary>\n'
        yield str(context.call((undefined(name='transitions_md') if l_0_transitions_md is missing else l_0_transitions_md), '####', (undefined(name='transitions_moves') if l_0_transitions_moves is missing else l_0_transitions_moves), str_join(('in the ', context.call((undefined(name='full_report') if l_0_full_report is missing else l_0_full_report)), ))))
        yield '\n\n</details>\n'
    for (l_1_summary, l_1_listed) in (undefined(name='warning_groups') if l_0_warning_groups is missing else l_0_warning_groups):
        _loop_vars = {}
        pass
        yield '\n<details><summary>⚠ '
        yield str(t_4(l_1_summary))
        yield '</summary>\n\n'
        for l_2_message in environment.getattr(l_1_listed, 'items'):
            _loop_vars = {}
            pass
            yield '- '
            yield str(t_3(l_2_message))
            yield '\n'
        l_2_message = missing
        if environment.getattr(l_1_listed, 'more'):
            pass
            yield '- … and '
            yield str(environment.getattr(l_1_listed, 'more'))
            yield ' more in the '
            yield str(context.call((undefined(name='full_report') if l_0_full_report is missing else l_0_full_report), _loop_vars=_loop_vars))
            yield '\n'
        yield '\n</details>\n'
    l_1_summary = l_1_listed = missing
    if (undefined(name='baseline') if l_0_baseline is missing else l_0_baseline):
        pass
        yield '\n<details><summary>Against the baseline: '
        yield str(t_4((undefined(name='baseline_summary') if l_0_baseline_summary is missing else l_0_baseline_summary)))
        yield '</summary>\n\n'
        for l_1_line in (undefined(name='baseline_facts') if l_0_baseline_facts is missing else l_0_baseline_facts):
            _loop_vars = {}
            pass
            yield '- '
            yield str(t_3(l_1_line))
            yield '\n'
        l_1_line = missing
        if environment.getattr((undefined(name='baseline_glance') if l_0_baseline_glance is missing else l_0_baseline_glance), 'rows'):
            pass
            yield '\n**'
            yield str(t_3(environment.getattr((undefined(name='baseline_glance') if l_0_baseline_glance is missing else l_0_baseline_glance), 'caption')))
            yield '**\n\n'
            l_0_table = (undefined(name='baseline_glance') if l_0_baseline_glance is missing else l_0_baseline_glance)
            context.vars['table'] = l_0_table
            context.exported_vars.add('table')
            template = environment.get_template('_table.md.j2', 'summary.md.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'full_report': l_0_full_report, 'notes': l_0_notes, 'table': l_0_table, 'transitions_md': l_0_transitions_md}))
            try:
                for event in gen:
                    yield event
            finally: gen.close()
            yield '\n'
            yield str(t_3((undefined(name='baseline_note') if l_0_baseline_note is missing else l_0_baseline_note)))
            yield '\n'
        for l_1_block in (undefined(name='baseline') if l_0_baseline is missing else l_0_baseline):
            l_1_table = l_0_table
            _loop_vars = {}
            pass
            yield '\n**'
            yield str(t_3(environment.getattr(l_1_block, 'title')))
            yield ': every measure**; '
            yield str(t_3(environment.getattr(l_1_block, 'note')))
            yield '\n\n'
            l_1_table = environment.getattr(l_1_block, 'table')
            _loop_vars['table'] = l_1_table
            template = environment.get_template('_table.md.j2', 'summary.md.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'block': l_1_block, 'table': l_1_table, 'full_report': l_0_full_report, 'notes': l_0_notes, 'transitions_md': l_0_transitions_md}))
            try:
                for event in gen:
                    yield event
            finally: gen.close()
            if environment.getattr(l_1_block, 'cells'):
                pass
                yield '\n**'
                yield str(t_3(environment.getattr(environment.getattr(l_1_block, 'cells'), 'caption')))
                yield '**\n\n'
                l_1_table = environment.getattr(l_1_block, 'cells')
                _loop_vars['table'] = l_1_table
                template = environment.get_template('_table.md.j2', 'summary.md.j2')
                gen = template.root_render_func(template.new_context(context.get_all(), True, {'block': l_1_block, 'table': l_1_table, 'full_report': l_0_full_report, 'notes': l_0_notes, 'transitions_md': l_0_transitions_md}))
                try:
                    for event in gen:
                        yield event
                finally: gen.close()
                if environment.getattr(l_1_block, 'cells_note'):
                    pass
                    yield '\n'
                    yield str(t_3(environment.getattr(l_1_block, 'cells_note')))
                    yield '\n'
            if environment.getattr(environment.getattr(l_1_block, 'changed'), 'rows'):
                pass
                yield '\n**'
                yield str(t_3(environment.getattr(l_1_block, 'title')))
                yield ': questions that changed ('
                yield str((t_2(environment.getattr(environment.getattr(l_1_block, 'changed'), 'rows')) + environment.getattr(l_1_block, 'more')))
                yield ')**\n\n'
                l_1_table = environment.getattr(l_1_block, 'changed')
                _loop_vars['table'] = l_1_table
                template = environment.get_template('_table.md.j2', 'summary.md.j2')
                gen = template.root_render_func(template.new_context(context.get_all(), True, {'block': l_1_block, 'table': l_1_table, 'full_report': l_0_full_report, 'notes': l_0_notes, 'transitions_md': l_0_transitions_md}))
                try:
                    for event in gen:
                        yield event
                finally: gen.close()
                if environment.getattr(l_1_block, 'more'):
                    pass
                    yield '… and '
                    yield str(environment.getattr(l_1_block, 'more'))
                    yield ' more in the '
                    yield str(context.call((undefined(name='full_report') if l_0_full_report is missing else l_0_full_report), _loop_vars=_loop_vars))
                    yield '.\n'
        l_1_block = l_1_table = missing
        yield '\n</details>\n'
    if environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'others'):
        pass
        yield '\n<details><summary>The other runs ('
        yield str(t_2(environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'others'), 'rows')))
        yield '): '
        yield str(t_4((undefined(name='others_summary') if l_0_others_summary is missing else l_0_others_summary)))
        yield '</summary>\n\n'
        l_0_table = environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'others')
        context.vars['table'] = l_0_table
        context.exported_vars.add('table')
        template = environment.get_template('_table.md.j2', 'summary.md.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'full_report': l_0_full_report, 'notes': l_0_notes, 'table': l_0_table, 'transitions_md': l_0_transitions_md}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
        yield '\n</details>\n'
    if (undefined(name='pairs_glance') if l_0_pairs_glance is missing else l_0_pairs_glance):
        pass
        yield '\n<details><summary>The runs pair by pair: '
        yield str(t_4((undefined(name='pairs_summary') if l_0_pairs_summary is missing else l_0_pairs_summary)))
        yield '</summary>\n\n'
        l_0_table = (undefined(name='pairs_glance') if l_0_pairs_glance is missing else l_0_pairs_glance)
        context.vars['table'] = l_0_table
        context.exported_vars.add('table')
        template = environment.get_template('_table.md.j2', 'summary.md.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'full_report': l_0_full_report, 'notes': l_0_notes, 'table': l_0_table, 'transitions_md': l_0_transitions_md}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
        yield '\n'
        yield str(t_3((undefined(name='pairs_note') if l_0_pairs_note is missing else l_0_pairs_note)))
        yield '\n\n</details>\n'
    if (undefined(name='latency') if l_0_latency is missing else l_0_latency):
        pass
        yield '\n<details><summary>Latency and cost</summary>\n\n'
        for l_1_table in environment.getattr((undefined(name='latency') if l_0_latency is missing else l_0_latency), 'tables'):
            _loop_vars = {}
            pass
            yield '**'
            yield str(t_3(environment.getattr(l_1_table, 'caption')))
            yield '**\n\n'
            template = environment.get_template('_table.md.j2', 'summary.md.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_1_table, 'full_report': l_0_full_report, 'notes': l_0_notes, 'transitions_md': l_0_transitions_md}))
            try:
                for event in gen:
                    yield event
            finally: gen.close()
            yield '\n'
        l_1_table = missing
        for l_1_note in environment.getattr((undefined(name='latency') if l_0_latency is missing else l_0_latency), 'notes')[:(undefined(name='limit') if l_0_limit is missing else l_0_limit)]:
            _loop_vars = {}
            pass
            yield '- '
            yield str(t_3(l_1_note))
            yield '\n'
        l_1_note = missing
        yield '\n</details>\n'
    yield '\n<details><summary>recall@k of every run at k = '
    yield str(t_1(context.eval_ctx, environment.getattr((undefined(name='report') if l_0_report is missing else l_0_report), 'k'), ', '))
    if (undefined(name='recall_chart') if l_0_recall_chart is missing else l_0_recall_chart):
        pass
        yield ': table and chart'
    yield '</summary>\n\n|'
    for l_1_label in (undefined(name='recall_header') if l_0_recall_header is missing else l_0_recall_header):
        _loop_vars = {}
        pass
        yield ' '
        yield str(t_3(l_1_label))
        yield ' |'
    l_1_label = missing
    yield '\n|'
    l_1_loop = missing
    for l_1_label, l_1_loop in LoopContext((undefined(name='recall_header') if l_0_recall_header is missing else l_0_recall_header), undefined):
        _loop_vars = {}
        pass
        yield ' '
        yield str(('---' if environment.getattr(l_1_loop, 'first') else '---:'))
        yield ' |'
    l_1_loop = l_1_label = missing
    yield '\n'
    for l_1_row in (undefined(name='recall_rows') if l_0_recall_rows is missing else l_0_recall_rows):
        _loop_vars = {}
        pass
        yield '|'
        for l_2_value in l_1_row:
            _loop_vars = {}
            pass
            yield ' '
            yield str(t_3(l_2_value))
            yield ' |'
        l_2_value = missing
        yield '\n'
    l_1_row = missing
    if (undefined(name='recall_chart') if l_0_recall_chart is missing else l_0_recall_chart):
        pass
        yield '\n```mermaid\nxychart-beta\n    title "'
        yield str(environment.getattr((undefined(name='recall_chart') if l_0_recall_chart is missing else l_0_recall_chart), 'title'))
        yield '"\n    x-axis "k" ['
        yield str(environment.getattr((undefined(name='recall_chart') if l_0_recall_chart is missing else l_0_recall_chart), 'x_labels'))
        yield ']\n    y-axis "recall@k" 0 --> 1\n'
        for l_1_values in environment.getattr((undefined(name='recall_chart') if l_0_recall_chart is missing else l_0_recall_chart), 'lines'):
            _loop_vars = {}
            pass
            yield '    line ['
            yield str(l_1_values)
            yield ']\n'
        l_1_values = missing
        yield '```\n'
    yield '\n</details>\n'
    if (undefined(name='glossary') if l_0_glossary is missing else l_0_glossary):
        pass
        yield '\n<sub>Glossary: '
        l_1_loop = missing
        for l_1_line, l_1_loop in LoopContext((undefined(name='glossary') if l_0_glossary is missing else l_0_glossary), undefined):
            _loop_vars = {}
            pass
            yield str(t_3(l_1_line))
            if (not environment.getattr(l_1_loop, 'last')):
                pass
                yield ' · '
        l_1_loop = l_1_line = missing
        yield '. '
        if (undefined(name='glossary_url') if l_0_glossary_url is missing else l_0_glossary_url):
            pass
            yield '[Every definition]('
            yield str((undefined(name='glossary_url') if l_0_glossary_url is missing else l_0_glossary_url))
            yield ')'
        else:
            pass
            yield "Every definition: the full report's glossary, "
            yield str(t_3((undefined(name='report_place') if l_0_report_place is missing else l_0_report_place)))
        yield ', and docs/measures.md.</sub>\n'

blocks = {}
debug_info = '1=87&10=89&11=117&13=119&14=137&16=141&18=144&20=147&22=151&23=155&25=158&26=161&28=165&30=168&32=170&33=174&35=177&36=180&41=185&42=187&46=191&50=194&52=196&54=198&56=202&58=206&59=210&62=225&63=228&65=232&67=256&69=259&71=261&73=264&75=266&77=269&79=271&80=279&81=285&82=289&84=302&86=305&88=307&90=311&93=320&95=323&96=327&99=330&102=334&103=338&104=340&108=344&109=347&112=351&114=354&115=358&119=361&121=364&123=366&124=370&126=382&127=385&132=390&135=394&137=398&138=404&140=407&143=411&144=415&148=436&150=439&155=452&156=458&158=461&159=465&163=467&165=471&167=473&168=477&170=480&171=483&176=489&178=492&180=494&181=498&183=501&185=504&187=506&188=509&190=516&192=518&194=523&196=527&197=529&198=535&200=538&202=540&203=542&204=548&206=551&209=553&211=556&213=560&214=562&215=568&216=571&223=577&225=580&227=584&228=587&232=594&234=597&236=599&237=602&239=609&243=611&247=614&248=618&250=620&253=628&254=632&260=637&262=642&264=651&266=659&267=663&270=672&274=675&275=677&277=679&278=683&284=688&286=692'