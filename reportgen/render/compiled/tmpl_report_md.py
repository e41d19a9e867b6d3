# Generated from templates/report.md.j2 by scripts/make_compiled_templates.py
KEY = '9040adc7e6bb12d3dc24a244b5ed993e9d78ddae99734af43f0327f245505a15'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'report.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_report = resolve('report')
    l_0_subtitle = resolve('subtitle')
    l_0_context_notes = resolve('context_notes')
    l_0_transitions = resolve('transitions')
    l_0_methods_title = resolve('methods_title')
    l_0_headlines = resolve('headlines')
    l_0_methods_all = resolve('methods_all')
    l_0_figures = resolve('figures')
    l_0_kinds_all = resolve('kinds_all')
    l_0_questions_cut = resolve('questions_cut')
    l_0_questions = resolve('questions')
    l_0_questions_total = resolve('questions_total')
    l_0_per_question_file = resolve('per_question_file')
    l_0_questions_counted = resolve('questions_counted')
    l_0_has_cells = resolve('has_cells')
    l_0_question_runs = resolve('question_runs')
    l_0_facts = resolve('facts')
    l_0_glossary = resolve('glossary')
    l_0_baseline_section = l_0_pairs_section = l_0_cells_by_kind = l_0_verdict_join = l_0_transitions_md = missing
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
    included_template = environment.get_template('_comparisons.md.j2', 'report.md.j2').make_module(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_md': l_0_transitions_md, 'verdict_join': l_0_verdict_join})
    l_0_baseline_section = getattr(included_template, 'baseline_section', missing)
    if l_0_baseline_section is missing:
        l_0_baseline_section = undefined(f"the template {included_template.__name__!r} (imported on line 1 in 'report.md.j2') does not export the requested name 'baseline_section'", name='baseline_section')
    l_0_pairs_section = getattr(included_template, 'pairs_section', missing)
    if l_0_pairs_section is missing:
        l_0_pairs_section = undefined(f"the template {included_template.__name__!r} (imported on line 1 in 'report.md.j2') does not export the requested name 'pairs_section'", name='pairs_section')
    context.vars.update({'baseline_section': l_0_baseline_section, 'pairs_section': l_0_pairs_section})
    context.exported_vars.difference_update(('baseline_section', 'pairs_section'))
    included_template = environment.get_template('_attribution.md.j2', 'report.md.j2').make_module(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_md': l_0_transitions_md, 'verdict_join': l_0_verdict_join})
    l_0_cells_by_kind = getattr(included_template, 'cells_by_kind', missing)
    if l_0_cells_by_kind is missing:
        l_0_cells_by_kind = undefined(f"the template {included_template.__name__!r} (imported on line 2 in 'report.md.j2') does not export the requested name 'cells_by_kind'", name='cells_by_kind')
    l_0_verdict_join = getattr(included_template, 'verdict_join', missing)
    if l_0_verdict_join is missing:
        l_0_verdict_join = undefined(f"the template {included_template.__name__!r} (imported on line 2 in 'report.md.j2') does not export the requested name 'verdict_join'", name='verdict_join')
    context.vars.update({'cells_by_kind': l_0_cells_by_kind, 'verdict_join': l_0_verdict_join})
    context.exported_vars.difference_update(('cells_by_kind', 'verdict_join'))
    yield '# Retrieval report '
    yield str(t_2(environment.getattr((undefined(name='report') if l_0_report is missing else l_0_report), 'version')))
    yield '\n\n'
    yield str(t_2((undefined(name='subtitle') if l_0_subtitle is missing else l_0_subtitle)))
    yield '\n'
    for l_1_note in (undefined(name='context_notes') if l_0_context_notes is missing else l_0_context_notes):
        _loop_vars = {}
        pass
        yield '\n> '
        yield str(t_2(l_1_note))
        yield '\n'
    l_1_note = missing
    template = environment.get_template('_first_screen.md.j2', 'report.md.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_md': l_0_transitions_md, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    included_template = environment.get_template('_transitions.md.j2', 'report.md.j2').make_module(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_md': l_0_transitions_md, 'verdict_join': l_0_verdict_join})
    l_0_transitions_md = getattr(included_template, 'transitions_md', missing)
    if l_0_transitions_md is missing:
        l_0_transitions_md = undefined(f"the template {included_template.__name__!r} (imported on line 11 in 'report.md.j2') does not export the requested name 'transitions_md'", name='transitions_md')
    context.vars['transitions_md'] = l_0_transitions_md
    context.exported_vars.discard('transitions_md')
    if (undefined(name='transitions') if l_0_transitions is missing else l_0_transitions):
        pass
        yield str(context.call((undefined(name='transitions_md') if l_0_transitions_md is missing else l_0_transitions_md), '###', 30, 'in report.json'))
        yield '\n'
    yield '\n'
    yield str(context.call((undefined(name='baseline_section') if l_0_baseline_section is missing else l_0_baseline_section)))
    yield '\n## '
    yield str(t_2((undefined(name='methods_title') if l_0_methods_title is missing else l_0_methods_title)))
    yield '\n\nMeans over the questions with relevant passages, with the 95% interval of each mean in small print; the best value of each column is in bold. One question moves a mean by up to 1/n: a difference smaller than that is not evidence.\n\n'
    for l_1_line in (undefined(name='headlines') if l_0_headlines is missing else l_0_headlines):
        _loop_vars = {}
        pass
        yield '- '
        yield str(t_2(l_1_line))
        yield '\n'
    l_1_line = missing
    for l_1_table in (undefined(name='methods_all') if l_0_methods_all is missing else l_0_methods_all):
        _loop_vars = {}
        pass
        yield '\n**'
        yield str(t_2(environment.getattr(l_1_table, 'caption')))
        yield '**\n\n'
        template = environment.get_template('_table.md.j2', 'report.md.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_1_table, 'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_md': l_0_transitions_md, 'verdict_join': l_0_verdict_join}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
    l_1_table = missing
    if (undefined(name='figures') if l_0_figures is missing else l_0_figures):
        pass
        yield '\n## Curves over k\n\n'
        for l_1_figure in (undefined(name='figures') if l_0_figures is missing else l_0_figures):
            l_1_chart_format = resolve('chart_format')
            _loop_vars = {}
            pass
            yield '!['
            yield str(t_2(environment.getattr(l_1_figure, 'caption')))
            yield '](charts/'
            yield str(environment.getattr(l_1_figure, 'stem'))
            yield '.'
            yield str((undefined(name='chart_format') if l_1_chart_format is missing else l_1_chart_format))
            yield ')\n\n'
        l_1_figure = l_1_chart_format = missing
    yield '\n## By kind, top '
    yield str(environment.getattr((undefined(name='report') if l_0_report is missing else l_0_report), 'context_k'))
    yield '\n'
    for l_1_table in (undefined(name='kinds_all') if l_0_kinds_all is missing else l_0_kinds_all):
        _loop_vars = {}
        pass
        yield '\n**'
        yield str(t_2(environment.getattr(l_1_table, 'caption')))
        yield '**\n\n'
        template = environment.get_template('_table.md.j2', 'report.md.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_1_table, 'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_md': l_0_transitions_md, 'verdict_join': l_0_verdict_join}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
    l_1_table = missing
    yield str(context.call((undefined(name='cells_by_kind') if l_0_cells_by_kind is missing else l_0_cells_by_kind)))
    yield '\n\n'
    template = environment.get_template('_predictors.md.j2', 'report.md.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_md': l_0_transitions_md, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    template = environment.get_template('_cutoff.md.j2', 'report.md.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_md': l_0_transitions_md, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    yield '\n'
    template = environment.get_template('_chunkings.md.j2', 'report.md.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_md': l_0_transitions_md, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    template = environment.get_template('_latency.md.j2', 'report.md.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_md': l_0_transitions_md, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    template = environment.get_template('_slices.md.j2', 'report.md.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_md': l_0_transitions_md, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    template = environment.get_template('_secondary.md.j2', 'report.md.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_md': l_0_transitions_md, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    yield str(context.call((undefined(name='pairs_section') if l_0_pairs_section is missing else l_0_pairs_section)))
    yield '\n'
    template = environment.get_template('_drilldown.md.j2', 'report.md.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_md': l_0_transitions_md, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    yield '## Questions\n\n'
    if (undefined(name='questions_cut') if l_0_questions_cut is missing else l_0_questions_cut):
        pass
        yield 'Showing the first '
        yield str(t_1((undefined(name='questions') if l_0_questions is missing else l_0_questions)))
        yield ' of '
        yield str((undefined(name='questions_total') if l_0_questions_total is missing else l_0_questions_total))
        yield ' questions by id; every value is in ['
        yield str(t_2((undefined(name='per_question_file') if l_0_per_question_file is missing else l_0_per_question_file)))
        yield ']('
        yield str((undefined(name='per_question_file') if l_0_per_question_file is missing else l_0_per_question_file))
        yield ').\n'
    else:
        pass
        yield str((undefined(name='questions_counted') if l_0_questions_counted is missing else l_0_questions_counted))
        yield ', all shown; the values behind every mean are in ['
        yield str(t_2((undefined(name='per_question_file') if l_0_per_question_file is missing else l_0_per_question_file)))
        yield ']('
        yield str((undefined(name='per_question_file') if l_0_per_question_file is missing else l_0_per_question_file))
        yield ').\n'
    yield 'Per run: whether a gold chunk is in the top '
    yield str(environment.getattr((undefined(name='report') if l_0_report is missing else l_0_report), 'context_k'))
    yield ' (✓) or not (✗, with the rank of the first gold chunk when it comes later)'
    if (undefined(name='has_cells') if l_0_has_cells is missing else l_0_has_cells):
        pass
        yield ", the question's cell"
    yield ' and the top '
    yield str(environment.getattr((undefined(name='report') if l_0_report is missing else l_0_report), 'context_k'))
    yield ' chunk ids, gold ones in bold. '
    yield str(t_2(environment.getitem((undefined(name='question_runs') if l_0_question_runs is missing else l_0_question_runs), 0)))
    yield ' comes first.\n\n| id | question |'
    for l_1_name in (undefined(name='question_runs') if l_0_question_runs is missing else l_0_question_runs):
        _loop_vars = {}
        pass
        yield ' '
        yield str(t_2(l_1_name))
        yield ' |'
    l_1_name = missing
    yield '\n| --- | --- |'
    for l_1_name in (undefined(name='question_runs') if l_0_question_runs is missing else l_0_question_runs):
        _loop_vars = {}
        pass
        yield ' --- |'
    l_1_name = missing
    yield '\n'
    l_1_loop = missing
    for l_1_row, l_1_loop in LoopContext((undefined(name='questions') if l_0_questions is missing else l_0_questions), undefined):
        _loop_vars = {}
        pass
        yield '| '
        yield str(t_2(environment.getattr(l_1_row, 'qid')))
        yield ' ('
        yield str(t_2(environment.getattr(l_1_row, 'kind')))
        yield ') | '
        yield str(t_2(environment.getattr(l_1_row, 'question')))
        if environment.getattr(l_1_row, 'question'):
            pass
            yield '; '
        yield 'gold: '
        yield str(t_2(environment.getattr(l_1_row, 'gold')))
        if environment.getattr(l_1_row, 'status_tag'):
            pass
            yield ' ('
            yield str(t_2(environment.getattr(l_1_row, 'status_tag')))
            yield ')'
        yield ' |'
        l_2_loop = missing
        for l_2_run, l_2_loop in LoopContext(environment.getattr(l_1_row, 'per_run'), undefined):
            _loop_vars = {}
            pass
            yield ' '
            yield str(environment.getattr(l_2_run, 'symbol'))
            yield ' '
            yield str(t_2(environment.getattr(l_2_run, 'found')))
            if environment.getattr(l_2_run, 'cell'):
                pass
                yield ' ('
                yield str(t_2(environment.getattr(l_2_run, 'cell')))
                yield ')'
            yield ':'
            l_3_loop = missing
            t_3 = 1
            for (l_3_chunk, l_3_is_gold), l_3_loop in LoopContext(environment.getattr(l_2_run, 'top'), undefined):
                _loop_vars = {}
                pass
                yield ' '
                if l_3_is_gold:
                    pass
                    yield '**'
                    yield str(t_2(l_3_chunk))
                    yield '**'
                else:
                    pass
                    yield str(t_2(l_3_chunk))
                if (not environment.getattr(l_3_loop, 'last')):
                    pass
                    yield ','
                t_3 = 0
            l_3_loop = l_3_chunk = l_3_is_gold = missing
            if t_3:
                pass
                yield ' (nothing returned)'
            yield ' |'
        l_2_loop = l_2_run = missing
        yield '\n'
    l_1_loop = l_1_row = missing
    yield '\n## Inputs and hygiene\n\n| | |\n| --- | --- |\n'
    for (l_1_label, l_1_value) in (undefined(name='facts') if l_0_facts is missing else l_0_facts):
        _loop_vars = {}
        pass
        yield '| '
        yield str(t_2(l_1_label))
        yield ' | '
        yield str(t_2(l_1_value))
        yield ' |\n'
    l_1_label = l_1_value = missing
    yield str(context.call((undefined(name='verdict_join') if l_0_verdict_join is missing else l_0_verdict_join)))
    yield '\n'
    template = environment.get_template('_hygiene.md.j2', 'report.md.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_md': l_0_transitions_md, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    yield '\n## Glossary\n\n'
    for (l_1_term, l_1_formula, l_1_description) in (undefined(name='glossary') if l_0_glossary is missing else l_0_glossary):
        _loop_vars = {}
        pass
        yield '- **'
        yield str(t_2(l_1_term))
        yield '**: '
        yield str(t_2(l_1_formula))
        yield '. '
        yield str(t_2(l_1_description))
        yield '\n'
    l_1_term = l_1_formula = l_1_description = missing
    yield '\n**hit@k and "recall at k".** Some texts call hit@k "recall at k" (is at least one gold chunk in the top k?). reportgen reports both measures under the names above: hit@k is that yes/no question; recall@k is the share of the gold chunks found.\n'

blocks = {}
debug_info = '1=42&2=51&3=61&5=63&6=65&8=69&10=72&11=78&12=84&13=86&16=89&17=91&21=93&22=97&24=100&26=104&28=106&30=113&34=116&35=121&40=129&41=131&43=135&45=137&47=144&49=146&51=159&52=177&53=183&54=185&57=192&58=195&60=205&62=212&64=222&66=230&68=237&69=241&77=298&78=302&80=307&81=309&85=316&86=320'