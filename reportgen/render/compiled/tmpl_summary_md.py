# Generated from templates/summary.md.j2 by scripts/make_compiled_templates.py
KEY = '49e5133cc467261d5b4cc3dffaee20982620ae621bb28d7cf2e09bde1f223ef6'
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
    l_0_replicates = resolve('replicates')
    l_0_cells = resolve('cells')
    l_0_cells_sent = resolve('cells_sent')
    l_0_cell_names = resolve('cell_names')
    l_0_judge_trials = resolve('judge_trials')
    l_0_transitions = resolve('transitions')
    l_0_transitions_moves = resolve('transitions_moves')
    l_0_drilldown = resolve('drilldown')
    l_0_drilldown_url = resolve('drilldown_url')
    l_0_report_place = resolve('report_place')
    l_0_alerts = resolve('alerts')
    l_0_slices_moved = resolve('slices_moved')
    l_0_table = resolve('table')
    l_0_warning_groups = resolve('warning_groups')
    l_0_baseline = resolve('baseline')
    l_0_baseline_facts = resolve('baseline_facts')
    l_0_baseline_glance = resolve('baseline_glance')
    l_0_baseline_note = resolve('baseline_note')
    l_0_pairs_glance = resolve('pairs_glance')
    l_0_pairs_note = resolve('pairs_note')
    l_0_latency = resolve('latency')
    l_0_limit = resolve('limit')
    l_0_recall_header = resolve('recall_header')
    l_0_recall_rows = resolve('recall_rows')
    l_0_recall_chart = resolve('recall_chart')
    l_0_glossary = resolve('glossary')
    l_0_glossary_url = resolve('glossary_url')
    l_0_full_report = l_0_transitions_md = missing
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
    try:
        t_3 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    yield str((undefined(name='marker') if l_0_marker is missing else l_0_marker))
    yield '\n'
    def macro(l_1_where):
        t_4 = []
        l_1_report_url = resolve('report_url')
        if l_1_where is missing:
            l_1_where = False
        pass
        if (undefined(name='report_url') if l_1_report_url is missing else l_1_report_url):
            pass
            t_4.extend((
                '[full report](',
                str((undefined(name='report_url') if l_1_report_url is missing else l_1_report_url)),
                ')',
            ))
        elif l_1_where:
            pass
            t_4.extend((
                'full report: ',
                str(t_2((undefined(name='report_place') if l_0_report_place is missing else l_0_report_place))),
            ))
        else:
            pass
            t_4.append(
                'full report',
            )
        return concat(t_4)
    context.exported_vars.add('full_report')
    context.vars['full_report'] = l_0_full_report = Macro(environment, macro, 'full_report', ('where',), False, False, False, context.eval_ctx.autoescape)
    yield '### Retrieval report '
    yield str(t_2(environment.getattr((undefined(name='report') if l_0_report is missing else l_0_report), 'version')))
    yield '\n\nGold set '
    yield str(t_2((undefined(name='gold_version') if l_0_gold_version is missing else l_0_gold_version)))
    yield ' (fingerprint `'
    yield str(t_2(environment.getattr((undefined(name='gold') if l_0_gold is missing else l_0_gold), 'fingerprint')))
    yield '`), '
    yield str((undefined(name='questions_counted') if l_0_questions_counted is missing else l_0_questions_counted))
    yield ' ('
    yield str(environment.getattr((undefined(name='gold') if l_0_gold is missing else l_0_gold), 'answerable'))
    yield ' with relevant passages, '
    yield str(environment.getattr((undefined(name='gold') if l_0_gold is missing else l_0_gold), 'unanswerable'))
    yield ' unanswerable) · '
    yield str(t_2((undefined(name='context_k_words') if l_0_context_k_words is missing else l_0_context_k_words)))
    yield ' · reportgen '
    yield str(t_2(environment.getattr((undefined(name='report') if l_0_report is missing else l_0_report), 'tool_version')))
    yield ' · '
    yield str(t_2(environment.getattr((undefined(name='report') if l_0_report is missing else l_0_report), 'created')))
    yield ' · '
    yield str(context.call((undefined(name='full_report') if l_0_full_report is missing else l_0_full_report), where=True))
    yield '\n'
    for l_1_note in (undefined(name='context_notes') if l_0_context_notes is missing else l_0_context_notes):
        _loop_vars = {}
        pass
        yield '\n> '
        yield str(t_2(l_1_note))
        yield '\n'
    l_1_note = missing
    if (not t_3((undefined(name='gate_passed') if l_0_gate_passed is missing else l_0_gate_passed))):
        pass
        yield '\n#### '
        yield str(t_2(environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'title')))
        yield ' '
        yield str(environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'badge'))
        yield '\n\n'
        for l_1_message in environment.getattr((undefined(name='gate_failed') if l_0_gate_failed is missing else l_0_gate_failed), 'items'):
            _loop_vars = {}
            pass
            yield '- ❌ '
            yield str(t_2(l_1_message))
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
                yield str(t_2(l_1_message))
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
            yield str(t_2(environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'notice')))
            yield '\n'
    yield '\n#### '
    yield str(t_2(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'title')))
    yield '\n\n'
    yield str(t_2(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'why_short')))
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
        yield str(t_2(environment.getattr(l_1_figure, 'label')))
        yield ' | **'
        yield str(t_2(environment.getattr(l_1_figure, 'value')))
        yield '** | '
        yield str(t_2(environment.getattr(l_1_figure, 'interval')))
        yield ' |'
        if environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'verdict'):
            pass
            yield ' '
            yield str(t_2(environment.getattr(l_1_figure, 'change')))
            yield ': **'
            yield str(t_2(environment.getattr(l_1_figure, 'verdict')))
            yield '** |'
        yield '\n'
    l_1_figure = missing
    template = environment.get_template('_verdict_notes.md.j2', 'summary.md.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'full_report': l_0_full_report, 'table': l_0_table, 'transitions_md': l_0_transitions_md}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    if (undefined(name='replicates') if l_0_replicates is missing else l_0_replicates):
        pass
        yield '\n'
        yield str(t_2((undefined(name='replicates') if l_0_replicates is missing else l_0_replicates)))
        yield '\n'
    if (undefined(name='cells') if l_0_cells is missing else l_0_cells):
        pass
        yield '\n#### The four cells ('
        yield str(t_2((undefined(name='cells_sent') if l_0_cells_sent is missing else l_0_cells_sent)))
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
            yield str(t_2(environment.getattr(l_1_row, 'run')))
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
            yield str(t_2((undefined(name='judge_trials') if l_0_judge_trials is missing else l_0_judge_trials)))
            yield '\n'
        l_1_loop = missing
        for l_1_row, l_1_loop in LoopContext((undefined(name='cells') if l_0_cells is missing else l_0_cells), undefined):
            _loop_vars = {}
            pass
            yield '\n**'
            yield str(t_2(environment.getattr(l_1_row, 'run')))
            yield '**: '
            yield str(t_2(environment.getattr(l_1_row, 'conclusion')))
            yield '.\n\n'
            yield str(t_2(environment.getattr(l_1_row, 'coverage')))
            yield ' '
            yield str(t_2(environment.getattr(l_1_row, 'rule_note')))
            yield '\n'
            if environment.getattr(l_1_row, 'stale_note'):
                pass
                yield '\n'
                yield str(t_2(environment.getattr(l_1_row, 'stale_note')))
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
                    yield str(t_2(l_3_qid))
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
    included_template = environment.get_template('_transitions.md.j2', 'summary.md.j2').make_module(context.get_all(), True, {'full_report': l_0_full_report, 'table': l_0_table, 'transitions_md': l_0_transitions_md})
    l_0_transitions_md = getattr(included_template, 'transitions_md', missing)
    if l_0_transitions_md is missing:
        l_0_transitions_md = undefined(f"the template {included_template.__name__!r} (imported on line 88 in 'summary.md.j2') does not export the requested name 'transitions_md'", name='transitions_md')
    context.vars['transitions_md'] = l_0_transitions_md
    context.exported_vars.discard('transitions_md')
    if (undefined(name='transitions') if l_0_transitions is missing else l_0_transitions):
        pass
        yield str(context.call((undefined(name='transitions_md') if l_0_transitions_md is missing else l_0_transitions_md), '####', (undefined(name='transitions_moves') if l_0_transitions_moves is missing else l_0_transitions_moves), str_join(('in the ', context.call((undefined(name='full_report') if l_0_full_report is missing else l_0_full_report)), ))))
        yield '\n'
    if (undefined(name='drilldown') if l_0_drilldown is missing else l_0_drilldown):
        pass
        yield '\n'
        yield str(t_2((undefined(name='drilldown') if l_0_drilldown is missing else l_0_drilldown)))
        yield ': '
        if (undefined(name='drilldown_url') if l_0_drilldown_url is missing else l_0_drilldown_url):
            pass
            yield '[in the full report]('
            yield str((undefined(name='drilldown_url') if l_0_drilldown_url is missing else l_0_drilldown_url))
            yield ')'
        else:
            pass
            yield 'in the full report, '
            yield str(t_2((undefined(name='report_place') if l_0_report_place is missing else l_0_report_place)))
        yield '.\n'
    if environment.getattr((undefined(name='alerts') if l_0_alerts is missing else l_0_alerts), 'items'):
        pass
        yield '\n> [!CAUTION]\n'
        l_1_loop = missing
        for l_1_message, l_1_loop in LoopContext(environment.getattr((undefined(name='alerts') if l_0_alerts is missing else l_0_alerts), 'items'), undefined):
            _loop_vars = {}
            pass
            yield '> '
            yield str(t_2(l_1_message))
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
            yield str(t_2(l_1_line))
            yield '\n'
        l_1_line = missing
    if environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'others'):
        pass
        yield '\n**'
        yield str(t_2(environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'others'), 'caption')))
        yield '**\n\n'
        l_0_table = environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'others')
        context.vars['table'] = l_0_table
        context.exported_vars.add('table')
        template = environment.get_template('_table.md.j2', 'summary.md.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'full_report': l_0_full_report, 'table': l_0_table, 'transitions_md': l_0_transitions_md}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
    for (l_1_summary, l_1_listed) in (undefined(name='warning_groups') if l_0_warning_groups is missing else l_0_warning_groups):
        _loop_vars = {}
        pass
        yield '\n<details><summary>⚠ '
        yield str(t_2(l_1_summary))
        yield '</summary>\n\n'
        for l_2_message in environment.getattr(l_1_listed, 'items'):
            _loop_vars = {}
            pass
            yield '- '
            yield str(t_2(l_2_message))
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
        yield '\n#### Against the baseline\n\n'
        for l_1_line in (undefined(name='baseline_facts') if l_0_baseline_facts is missing else l_0_baseline_facts):
            _loop_vars = {}
            pass
            yield '- '
            yield str(t_2(l_1_line))
            yield '\n'
        l_1_line = missing
        if environment.getattr((undefined(name='baseline_glance') if l_0_baseline_glance is missing else l_0_baseline_glance), 'rows'):
            pass
            yield '\n**'
            yield str(t_2(environment.getattr((undefined(name='baseline_glance') if l_0_baseline_glance is missing else l_0_baseline_glance), 'caption')))
            yield '**\n\n'
            l_0_table = (undefined(name='baseline_glance') if l_0_baseline_glance is missing else l_0_baseline_glance)
            context.vars['table'] = l_0_table
            context.exported_vars.add('table')
            template = environment.get_template('_table.md.j2', 'summary.md.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'full_report': l_0_full_report, 'table': l_0_table, 'transitions_md': l_0_transitions_md}))
            try:
                for event in gen:
                    yield event
            finally: gen.close()
            yield '\n'
            yield str(t_2((undefined(name='baseline_note') if l_0_baseline_note is missing else l_0_baseline_note)))
            yield '\n'
        for l_1_block in (undefined(name='baseline') if l_0_baseline is missing else l_0_baseline):
            l_1_table = l_0_table
            _loop_vars = {}
            pass
            yield '\n<details><summary>'
            yield str(t_2(environment.getattr(l_1_block, 'title')))
            yield ': every measure; '
            yield str(t_2(environment.getattr(l_1_block, 'note')))
            yield '</summary>\n\n'
            l_1_table = environment.getattr(l_1_block, 'table')
            _loop_vars['table'] = l_1_table
            template = environment.get_template('_table.md.j2', 'summary.md.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'block': l_1_block, 'table': l_1_table, 'full_report': l_0_full_report, 'transitions_md': l_0_transitions_md}))
            try:
                for event in gen:
                    yield event
            finally: gen.close()
            if environment.getattr(l_1_block, 'cells'):
                pass
                yield '\n**'
                yield str(t_2(environment.getattr(environment.getattr(l_1_block, 'cells'), 'caption')))
                yield '**\n\n'
                l_1_table = environment.getattr(l_1_block, 'cells')
                _loop_vars['table'] = l_1_table
                template = environment.get_template('_table.md.j2', 'summary.md.j2')
                gen = template.root_render_func(template.new_context(context.get_all(), True, {'block': l_1_block, 'table': l_1_table, 'full_report': l_0_full_report, 'transitions_md': l_0_transitions_md}))
                try:
                    for event in gen:
                        yield event
                finally: gen.close()
                if environment.getattr(l_1_block, 'cells_note'):
                    pass
                    yield '\n'
                    yield str(t_2(environment.getattr(l_1_block, 'cells_note')))
                    yield '\n'
            yield '\n</details>\n'
            if environment.getattr(environment.getattr(l_1_block, 'changed'), 'rows'):
                pass
                yield '\n<details><summary>'
                yield str(t_2(environment.getattr(l_1_block, 'title')))
                yield ': questions that changed ('
                yield str((t_1(environment.getattr(environment.getattr(l_1_block, 'changed'), 'rows')) + environment.getattr(l_1_block, 'more')))
                yield ')</summary>\n\n'
                l_1_table = environment.getattr(l_1_block, 'changed')
                _loop_vars['table'] = l_1_table
                template = environment.get_template('_table.md.j2', 'summary.md.j2')
                gen = template.root_render_func(template.new_context(context.get_all(), True, {'block': l_1_block, 'table': l_1_table, 'full_report': l_0_full_report, 'transitions_md': l_0_transitions_md}))
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
                yield '\n</details>\n'
        l_1_block = l_1_table = missing
    if (undefined(name='pairs_glance') if l_0_pairs_glance is missing else l_0_pairs_glance):
        pass
        yield '\n#### Runs compared\n\n**'
        yield str(t_2(environment.getattr((undefined(name='pairs_glance') if l_0_pairs_glance is missing else l_0_pairs_glance), 'caption')))
        yield '**\n\n'
        l_0_table = (undefined(name='pairs_glance') if l_0_pairs_glance is missing else l_0_pairs_glance)
        context.vars['table'] = l_0_table
        context.exported_vars.add('table')
        template = environment.get_template('_table.md.j2', 'summary.md.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'full_report': l_0_full_report, 'table': l_0_table, 'transitions_md': l_0_transitions_md}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
        yield '\n'
        yield str(t_2((undefined(name='pairs_note') if l_0_pairs_note is missing else l_0_pairs_note)))
        yield '\n'
    if (undefined(name='latency') if l_0_latency is missing else l_0_latency):
        pass
        yield '\n#### Latency and cost\n\n'
        for l_1_table in environment.getattr((undefined(name='latency') if l_0_latency is missing else l_0_latency), 'tables'):
            _loop_vars = {}
            pass
            yield '**'
            yield str(t_2(environment.getattr(l_1_table, 'caption')))
            yield '**\n\n'
            template = environment.get_template('_table.md.j2', 'summary.md.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_1_table, 'full_report': l_0_full_report, 'transitions_md': l_0_transitions_md}))
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
            yield str(t_2(l_1_note))
            yield '\n'
        l_1_note = missing
    yield '\n#### recall@k\n\n|'
    for l_1_label in (undefined(name='recall_header') if l_0_recall_header is missing else l_0_recall_header):
        _loop_vars = {}
        pass
        yield ' '
        yield str(t_2(l_1_label))
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
            yield str(t_2(l_2_value))
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
    if (undefined(name='glossary') if l_0_glossary is missing else l_0_glossary):
        pass
        yield '\n<sub>Glossary: '
        l_1_loop = missing
        for l_1_line, l_1_loop in LoopContext((undefined(name='glossary') if l_0_glossary is missing else l_0_glossary), undefined):
            _loop_vars = {}
            pass
            yield str(t_2(l_1_line))
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
            yield str(t_2((undefined(name='report_place') if l_0_report_place is missing else l_0_report_place)))
        yield ', and docs/measures.md.</sub>\n'

blocks = {}
debug_info = '1=69&2=71&3=99&5=101&6=119&8=123&10=126&12=129&14=133&15=137&17=140&18=143&20=147&22=150&24=152&25=156&27=159&28=162&33=167&34=169&38=173&42=176&44=178&46=180&48=184&50=188&51=192&54=207&55=213&57=216&59=218&61=221&63=223&64=231&65=237&66=241&68=254&70=257&72=260&74=264&76=268&77=272&79=275&82=279&83=283&88=304&89=310&90=312&92=314&94=317&96=329&99=333&100=337&101=339&105=343&106=346&109=350&111=353&112=357&115=360&117=363&119=365&120=368&122=374&124=378&126=380&127=384&129=387&130=390&135=396&139=399&140=403&142=406&144=409&146=411&147=414&149=421&151=423&153=428&155=432&156=434&157=440&159=443&161=445&162=447&163=453&165=456&170=459&172=462&174=466&175=468&176=474&177=477&184=483&188=486&190=488&191=491&193=498&195=500&199=503&200=507&202=509&205=517&206=521&212=525&214=534&216=542&217=546&220=555&224=558&225=560&227=562&228=566&232=570&234=574'