# Generated from templates/report.html.j2 by scripts/make_compiled_templates.py
KEY = '936d7c171afb381c5755725d8ad21721ead9563dc41c01a0564b1958ac2ddac9'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'report.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_assets = resolve('assets')
    l_0_title = resolve('title')
    l_0_report = resolve('report')
    l_0_subtitle = resolve('subtitle')
    l_0_context_notes = resolve('context_notes')
    l_0_sections = resolve('sections')
    l_0_headlines = resolve('headlines')
    l_0_methods = resolve('methods')
    l_0_figures = resolve('figures')
    l_0_kinds = resolve('kinds')
    l_0_questions_cut = resolve('questions_cut')
    l_0_questions = resolve('questions')
    l_0_questions_total = resolve('questions_total')
    l_0_per_question_file = resolve('per_question_file')
    l_0_questions_counted = resolve('questions_counted')
    l_0_has_cells = resolve('has_cells')
    l_0_first_run_note = resolve('first_run_note')
    l_0_question_runs = resolve('question_runs')
    l_0_facts = resolve('facts')
    l_0_glossary = resolve('glossary')
    l_0_baseline_section = l_0_pairs_section = l_0_cells_by_kind = l_0_unanswerable = l_0_verdict_join = missing
    try:
        t_1 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    pass
    yield '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta http-equiv="Content-Security-Policy" content="'
    yield escape(environment.getattr((undefined(name='assets') if l_0_assets is missing else l_0_assets), 'csp'))
    yield '">\n<title>'
    yield escape((undefined(name='title') if l_0_title is missing else l_0_title))
    yield '</title>\n<style>\n'
    yield escape(environment.getattr((undefined(name='assets') if l_0_assets is missing else l_0_assets), 'css'))
    yield '\n</style>\n</head>\n<body>\n'
    included_template = environment.get_template('_comparisons.html.j2', 'report.html.j2').make_module(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join})
    l_0_baseline_section = getattr(included_template, 'baseline_section', missing)
    if l_0_baseline_section is missing:
        l_0_baseline_section = undefined(f"the template {included_template.__name__!r} (imported on line 13 in 'report.html.j2') does not export the requested name 'baseline_section'", name='baseline_section')
    l_0_pairs_section = getattr(included_template, 'pairs_section', missing)
    if l_0_pairs_section is missing:
        l_0_pairs_section = undefined(f"the template {included_template.__name__!r} (imported on line 13 in 'report.html.j2') does not export the requested name 'pairs_section'", name='pairs_section')
    context.vars.update({'baseline_section': l_0_baseline_section, 'pairs_section': l_0_pairs_section})
    context.exported_vars.difference_update(('baseline_section', 'pairs_section'))
    included_template = environment.get_template('_attribution.html.j2', 'report.html.j2').make_module(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join})
    l_0_cells_by_kind = getattr(included_template, 'cells_by_kind', missing)
    if l_0_cells_by_kind is missing:
        l_0_cells_by_kind = undefined(f"the template {included_template.__name__!r} (imported on line 14 in 'report.html.j2') does not export the requested name 'cells_by_kind'", name='cells_by_kind')
    l_0_unanswerable = getattr(included_template, 'unanswerable', missing)
    if l_0_unanswerable is missing:
        l_0_unanswerable = undefined(f"the template {included_template.__name__!r} (imported on line 14 in 'report.html.j2') does not export the requested name 'unanswerable'", name='unanswerable')
    l_0_verdict_join = getattr(included_template, 'verdict_join', missing)
    if l_0_verdict_join is missing:
        l_0_verdict_join = undefined(f"the template {included_template.__name__!r} (imported on line 14 in 'report.html.j2') does not export the requested name 'verdict_join'", name='verdict_join')
    context.vars.update({'cells_by_kind': l_0_cells_by_kind, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join})
    context.exported_vars.difference_update(('cells_by_kind', 'unanswerable', 'verdict_join'))
    yield '<header>\n  <h1>Retrieval report <span class="version">'
    yield escape(environment.getattr((undefined(name='report') if l_0_report is missing else l_0_report), 'version'))
    yield '</span></h1>\n  <p class="subtitle">'
    yield escape((undefined(name='subtitle') if l_0_subtitle is missing else l_0_subtitle))
    yield '</p>\n'
    for l_1_note in (undefined(name='context_notes') if l_0_context_notes is missing else l_0_context_notes):
        _loop_vars = {}
        pass
        yield '  <p class="note context-note">'
        yield escape(l_1_note)
        yield '</p>\n'
    l_1_note = missing
    yield '  <nav aria-label="Sections">\n'
    for (l_1_anchor, l_1_label) in (undefined(name='sections') if l_0_sections is missing else l_0_sections):
        _loop_vars = {}
        pass
        yield '    <a href="#'
        yield escape(l_1_anchor)
        yield '">'
        yield escape(l_1_label)
        yield '</a>\n'
    l_1_anchor = l_1_label = missing
    yield '  </nav>\n</header>\n<main>\n'
    template = environment.get_template('_first_screen.html.j2', 'report.html.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    yield '\n'
    yield escape(context.call((undefined(name='baseline_section') if l_0_baseline_section is missing else l_0_baseline_section)))
    yield '\n\n<section id="methods" aria-labelledby="methods-title">\n  <h2 id="methods-title">Methods</h2>\n  <p class="note">Means over the questions with relevant passages, with the 95% interval of each mean below it. The best value of each column is in bold and marked ▲. One question moves a mean by up to 1/n: a difference smaller than that is not evidence.</p>\n'
    for l_1_line in (undefined(name='headlines') if l_0_headlines is missing else l_0_headlines):
        _loop_vars = {}
        pass
        yield '  <p class="headline">'
        yield escape(l_1_line)
        yield '</p>\n'
    l_1_line = missing
    for l_1_table in (undefined(name='methods') if l_0_methods is missing else l_0_methods):
        _loop_vars = {}
        pass
        template = environment.get_template('_table.html.j2', 'report.html.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_1_table, 'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
    l_1_table = missing
    yield '</section>\n\n<section id="curves" aria-labelledby="curves-title">\n  <h2 id="curves-title">Curves over k</h2>\n  <div class="figures">\n'
    for l_1_figure in (undefined(name='figures') if l_0_figures is missing else l_0_figures):
        _loop_vars = {}
        pass
        yield '  <figure id="chart-'
        yield escape(environment.getattr(l_1_figure, 'stem'))
        yield '">\n    '
        yield escape(environment.getattr(l_1_figure, 'svg'))
        yield '\n    <figcaption>'
        yield escape(environment.getattr(l_1_figure, 'caption'))
        yield '</figcaption>\n  </figure>\n'
    l_1_figure = missing
    yield '  </div>\n</section>\n\n<section id="kinds" aria-labelledby="kinds-title">\n  <h2 id="kinds-title">By kind, top '
    yield escape(environment.getattr((undefined(name='report') if l_0_report is missing else l_0_report), 'context_k'))
    yield '</h2>\n  <div class="tables">\n'
    for l_1_table in (undefined(name='kinds') if l_0_kinds is missing else l_0_kinds):
        _loop_vars = {}
        pass
        template = environment.get_template('_table.html.j2', 'report.html.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_1_table, 'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
    l_1_table = missing
    yield '  </div>\n  '
    yield escape(context.call((undefined(name='cells_by_kind') if l_0_cells_by_kind is missing else l_0_cells_by_kind)))
    yield '\n</section>\n\n'
    template = environment.get_template('_cutoff.html.j2', 'report.html.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    yield '\n'
    template = environment.get_template('_chunkings.html.j2', 'report.html.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    yield escape(context.call((undefined(name='pairs_section') if l_0_pairs_section is missing else l_0_pairs_section)))
    yield '\n\n'
    template = environment.get_template('_drilldown.html.j2', 'report.html.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    yield '\n<section id="questions" aria-labelledby="questions-title">\n  <h2 id="questions-title">Questions</h2>\n  <p class="note">\n'
    if (undefined(name='questions_cut') if l_0_questions_cut is missing else l_0_questions_cut):
        pass
        yield '  Showing the first '
        yield escape(t_1((undefined(name='questions') if l_0_questions is missing else l_0_questions)))
        yield ' of '
        yield escape((undefined(name='questions_total') if l_0_questions_total is missing else l_0_questions_total))
        yield ' questions by id, to keep this page light; every value of every question is in <a href="'
        yield escape((undefined(name='per_question_file') if l_0_per_question_file is missing else l_0_per_question_file))
        yield '">'
        yield escape((undefined(name='per_question_file') if l_0_per_question_file is missing else l_0_per_question_file))
        yield '</a>.\n'
    else:
        pass
        yield '  '
        yield escape((undefined(name='questions_counted') if l_0_questions_counted is missing else l_0_questions_counted))
        yield ', all shown; the values behind every mean are in <a href="'
        yield escape((undefined(name='per_question_file') if l_0_per_question_file is missing else l_0_per_question_file))
        yield '">'
        yield escape((undefined(name='per_question_file') if l_0_per_question_file is missing else l_0_per_question_file))
        yield '</a>.\n'
    yield '  Per run: whether a gold chunk is in the top '
    yield escape(environment.getattr((undefined(name='report') if l_0_report is missing else l_0_report), 'context_k'))
    yield ' (✓) or not (✗, with the rank of the first gold chunk when it comes later), the top '
    yield escape(environment.getattr((undefined(name='report') if l_0_report is missing else l_0_report), 'context_k'))
    yield ' chunk ids in rank order (gold ones marked)'
    if (undefined(name='has_cells') if l_0_has_cells is missing else l_0_has_cells):
        pass
        yield " and the question's cell"
    yield '. '
    yield escape((undefined(name='first_run_note') if l_0_first_run_note is missing else l_0_first_run_note))
    yield '.\n  </p>\n  <div class="scroll">\n  <table class="questions sortable filterable">\n    <caption>Questions and what each run returned</caption>\n    <thead>\n      <tr><th scope="col">id</th><th scope="col">question</th>\n'
    l_1_loop = missing
    for l_1_name, l_1_loop in LoopContext((undefined(name='question_runs') if l_0_question_runs is missing else l_0_question_runs), undefined):
        _loop_vars = {}
        pass
        yield '<th scope="col"'
        if environment.getattr(l_1_loop, 'first'):
            pass
            yield ' class="focus-run"'
        yield '>'
        yield escape(l_1_name)
        yield '</th>'
    l_1_loop = l_1_name = missing
    yield '</tr>\n    </thead>\n    <tbody>\n'
    l_1_loop = missing
    for l_1_row, l_1_loop in LoopContext((undefined(name='questions') if l_0_questions is missing else l_0_questions), undefined):
        _loop_vars = {}
        pass
        yield '      <tr>\n        <th scope="row">'
        yield escape(environment.getattr(l_1_row, 'qid'))
        yield '<span class="kind">'
        yield escape(environment.getattr(l_1_row, 'kind'))
        yield '</span></th>\n        <td class="text">'
        yield escape(environment.getattr(l_1_row, 'question'))
        yield '<span class="gold-ids">gold: '
        yield escape(environment.getattr(l_1_row, 'gold'))
        if environment.getattr(l_1_row, 'status_tag'):
            pass
            yield ' <span class="tag">'
            yield escape(environment.getattr(l_1_row, 'status_tag'))
            yield '</span>'
        yield '</span></td>\n'
        l_2_loop = missing
        for l_2_run, l_2_loop in LoopContext(environment.getattr(l_1_row, 'per_run'), undefined):
            _loop_vars = {}
            pass
            yield '<td class="ids'
            if environment.getattr(l_2_loop, 'first'):
                pass
                yield ' focus-run'
            yield '" data-run="'
            yield escape(environment.getattr(l_2_run, 'run'))
            yield '" data-value="'
            yield escape(environment.getattr(l_2_run, 'sort_key'))
            yield '"><span class="'
            yield escape(environment.getattr(l_2_run, 'outcome'))
            yield '">'
            yield escape(environment.getattr(l_2_run, 'found'))
            yield '</span>'
            if environment.getattr(l_2_run, 'cell'):
                pass
                yield ' <span class="tag">'
                yield escape(environment.getattr(l_2_run, 'cell'))
                yield '</span>'
            yield '<ol class="ranked">'
            t_2 = 1
            for (l_3_chunk, l_3_is_gold) in environment.getattr(l_2_run, 'top'):
                _loop_vars = {}
                pass
                yield '<li'
                if l_3_is_gold:
                    pass
                    yield ' class="gold"'
                yield '>'
                yield escape(l_3_chunk)
                yield '</li>'
                t_2 = 0
            l_3_chunk = l_3_is_gold = missing
            if t_2:
                pass
                yield '<li class="none">(nothing returned)</li>'
            yield '</ol></td>'
        l_2_loop = l_2_run = missing
        yield '      </tr>\n'
    l_1_loop = l_1_row = missing
    yield '    </tbody>\n  </table>\n  </div>\n</section>\n\n<section id="inputs" aria-labelledby="inputs-title">\n  <h2 id="inputs-title">Inputs and hygiene</h2>\n  <dl class="facts">\n'
    for (l_1_label, l_1_value) in (undefined(name='facts') if l_0_facts is missing else l_0_facts):
        _loop_vars = {}
        pass
        yield '    <div><dt>'
        yield escape(l_1_label)
        yield '</dt><dd>'
        yield escape(l_1_value)
        yield '</dd></div>\n'
    l_1_label = l_1_value = missing
    yield '  </dl>\n  '
    yield escape(context.call((undefined(name='verdict_join') if l_0_verdict_join is missing else l_0_verdict_join)))
    yield '\n'
    template = environment.get_template('_hygiene.html.j2', 'report.html.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    yield '</section>\n\n<section id="glossary" aria-labelledby="glossary-title">\n  <h2 id="glossary-title">Glossary</h2>\n  <dl class="glossary">\n'
    for (l_1_term, l_1_formula, l_1_description) in (undefined(name='glossary') if l_0_glossary is missing else l_0_glossary):
        _loop_vars = {}
        pass
        yield '    <dt>'
        yield escape(l_1_term)
        yield '</dt><dd><code>'
        yield escape(l_1_formula)
        yield '</code> '
        yield escape(l_1_description)
        yield '</dd>\n'
    l_1_term = l_1_formula = l_1_description = missing
    yield '  </dl>\n  <p><strong>hit@k and "recall at k".</strong> Some texts call hit@k "recall at k" (is at least one gold chunk in the top k?). reportgen reports both measures under the names above: hit@k is that yes/no question; recall@k is the share of the gold chunks found.</p>\n  <p>Unanswerable questions are left out of every mean and reported on their own. A question a run does not answer counts as 0. A chunk repeated in one list counts once, at its first rank.</p>\n</section>\n</main>\n<footer><p>Made by reportgen '
    yield escape(environment.getattr((undefined(name='report') if l_0_report is missing else l_0_report), 'tool_version'))
    yield ' on '
    yield escape(environment.getattr((undefined(name='report') if l_0_report is missing else l_0_report), 'created'))
    yield '. This file is self-contained: it loads nothing from anywhere.</p></footer>\n<script>'
    yield escape(environment.getattr((undefined(name='assets') if l_0_assets is missing else l_0_assets), 'script'))
    yield '</script>\n</body>\n</html>\n'

blocks = {}
debug_info = '6=39&7=41&9=43&13=45&14=54&16=67&17=69&18=71&19=75&22=79&23=83&28=89&30=96&35=98&36=102&38=105&39=108&46=116&47=120&48=122&49=124&56=128&58=130&59=133&62=141&65=143&67=150&68=156&70=158&75=165&76=168&78=179&80=186&87=197&90=210&92=214&93=218&94=228&105=271&106=275&109=281&110=283&116=290&117=294&124=302&125=306'