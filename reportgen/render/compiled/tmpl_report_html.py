# Generated from templates/report.html.j2 by scripts/make_compiled_templates.py
KEY = 'c3160a01be1af57410dbccc217838b0c7bf1b6163275a0ad86b6232f814bad5d'
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
    l_0_methods_title = resolve('methods_title')
    l_0_headlines = resolve('headlines')
    l_0_methods = resolve('methods')
    l_0_methods_folded = resolve('methods_folded')
    l_0_figures = resolve('figures')
    l_0_kinds = resolve('kinds')
    l_0_kinds_folded = resolve('kinds_folded')
    l_0_facts = resolve('facts')
    l_0_glossary = resolve('glossary')
    l_0_baseline_section = l_0_pairs_section = l_0_cells_by_kind = l_0_unanswerable = l_0_verdict_join = l_0_transitions_section = missing
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
        t_3 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    pass
    yield '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta http-equiv="Content-Security-Policy" content="'
    yield escape(environment.getattr((undefined(name='assets') if l_0_assets is missing else l_0_assets), 'csp'))
    yield '">\n<title>'
    yield escape((undefined(name='title') if l_0_title is missing else l_0_title))
    yield '</title>\n<style>\n'
    yield escape(environment.getattr((undefined(name='assets') if l_0_assets is missing else l_0_assets), 'css'))
    yield '\n</style>\n</head>\n<body>\n'
    included_template = environment.get_template('_comparisons.html.j2', 'report.html.j2').make_module(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_section': l_0_transitions_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join})
    l_0_baseline_section = getattr(included_template, 'baseline_section', missing)
    if l_0_baseline_section is missing:
        l_0_baseline_section = undefined(f"the template {included_template.__name__!r} (imported on line 13 in 'report.html.j2') does not export the requested name 'baseline_section'", name='baseline_section')
    l_0_pairs_section = getattr(included_template, 'pairs_section', missing)
    if l_0_pairs_section is missing:
        l_0_pairs_section = undefined(f"the template {included_template.__name__!r} (imported on line 13 in 'report.html.j2') does not export the requested name 'pairs_section'", name='pairs_section')
    context.vars.update({'baseline_section': l_0_baseline_section, 'pairs_section': l_0_pairs_section})
    context.exported_vars.difference_update(('baseline_section', 'pairs_section'))
    included_template = environment.get_template('_attribution.html.j2', 'report.html.j2').make_module(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_section': l_0_transitions_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join})
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
    included_template = environment.get_template('_transitions.html.j2', 'report.html.j2').make_module(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_section': l_0_transitions_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join})
    l_0_transitions_section = getattr(included_template, 'transitions_section', missing)
    if l_0_transitions_section is missing:
        l_0_transitions_section = undefined(f"the template {included_template.__name__!r} (imported on line 15 in 'report.html.j2') does not export the requested name 'transitions_section'", name='transitions_section')
    context.vars['transitions_section'] = l_0_transitions_section
    context.exported_vars.discard('transitions_section')
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
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_section': l_0_transitions_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    yield '\n'
    yield escape(context.call((undefined(name='baseline_section') if l_0_baseline_section is missing else l_0_baseline_section)))
    yield '\n\n<section id="methods" aria-labelledby="methods-title">\n  <h2 id="methods-title">'
    yield escape((undefined(name='methods_title') if l_0_methods_title is missing else l_0_methods_title))
    yield '</h2>\n  <p class="note">Means over the questions with relevant passages, with the 95% interval of each mean below it. The best value of each column is in bold and marked ▲. One question moves a mean by up to 1/n: a difference smaller than that is not evidence.</p>\n'
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
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_1_table, 'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_section': l_0_transitions_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
    l_1_table = missing
    if (undefined(name='methods_folded') if l_0_methods_folded is missing else l_0_methods_folded):
        pass
        yield '  <details class="folded-tables"><summary>The other cutoffs and the whole list: '
        yield escape(t_1(context.eval_ctx, t_3(context, (undefined(name='methods_folded') if l_0_methods_folded is missing else l_0_methods_folded), attribute='caption'), ', '))
        yield '</summary>\n'
        for l_1_table in (undefined(name='methods_folded') if l_0_methods_folded is missing else l_0_methods_folded):
            _loop_vars = {}
            pass
            template = environment.get_template('_table.html.j2', 'report.html.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_1_table, 'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_section': l_0_transitions_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
            try:
                for event in gen:
                    yield event
            finally: gen.close()
        l_1_table = missing
        yield '  </details>\n'
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
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_1_table, 'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_section': l_0_transitions_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
    l_1_table = missing
    yield '  </div>\n'
    if (undefined(name='kinds_folded') if l_0_kinds_folded is missing else l_0_kinds_folded):
        pass
        yield '  <details class="folded-tables"><summary>The other runs by kind: '
        yield escape(t_1(context.eval_ctx, t_3(context, (undefined(name='kinds_folded') if l_0_kinds_folded is missing else l_0_kinds_folded), attribute='caption'), ', '))
        yield '</summary>\n  <div class="tables">\n'
        for l_1_table in (undefined(name='kinds_folded') if l_0_kinds_folded is missing else l_0_kinds_folded):
            _loop_vars = {}
            pass
            template = environment.get_template('_table.html.j2', 'report.html.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_1_table, 'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_section': l_0_transitions_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
            try:
                for event in gen:
                    yield event
            finally: gen.close()
        l_1_table = missing
        yield '  </div>\n  </details>\n'
    yield '  '
    yield escape(context.call((undefined(name='cells_by_kind') if l_0_cells_by_kind is missing else l_0_cells_by_kind)))
    yield '\n</section>\n\n'
    template = environment.get_template('_predictors.html.j2', 'report.html.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_section': l_0_transitions_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    template = environment.get_template('_cutoff.html.j2', 'report.html.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_section': l_0_transitions_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    yield '\n'
    template = environment.get_template('_chunkings.html.j2', 'report.html.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_section': l_0_transitions_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    template = environment.get_template('_latency.html.j2', 'report.html.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_section': l_0_transitions_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    template = environment.get_template('_slices.html.j2', 'report.html.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_section': l_0_transitions_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    template = environment.get_template('_secondary.html.j2', 'report.html.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_section': l_0_transitions_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    yield escape(context.call((undefined(name='pairs_section') if l_0_pairs_section is missing else l_0_pairs_section)))
    yield '\n\n'
    template = environment.get_template('_drilldown.html.j2', 'report.html.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_section': l_0_transitions_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    yield '\n'
    yield escape(context.call((undefined(name='transitions_section') if l_0_transitions_section is missing else l_0_transitions_section)))
    yield '\n\n'
    template = environment.get_template('_questions.html.j2', 'report.html.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_section': l_0_transitions_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    yield '\n<section id="inputs" aria-labelledby="inputs-title">\n  <h2 id="inputs-title">Inputs and hygiene</h2>\n  <dl class="facts">\n'
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
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'baseline_section': l_0_baseline_section, 'cells_by_kind': l_0_cells_by_kind, 'pairs_section': l_0_pairs_section, 'transitions_section': l_0_transitions_section, 'unanswerable': l_0_unanswerable, 'verdict_join': l_0_verdict_join}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    yield '</section>\n\n<section id="glossary" aria-labelledby="glossary-title">\n  <h2 id="glossary-title">Glossary</h2>\n  <details class="glossary"><summary>Every measure\'s formula and meaning ('
    yield escape(t_2((undefined(name='glossary') if l_0_glossary is missing else l_0_glossary)))
    yield ' terms)</summary>\n  <dl class="glossary">\n'
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
    yield '  </dl>\n  </details>\n  <p><strong>hit@k and "recall at k".</strong> Some texts call hit@k "recall at k" (is at least one gold chunk in the top k?). reportgen reports both measures under the names above: hit@k is that yes/no question; recall@k is the share of the gold chunks found.</p>\n  <p>Unanswerable questions are left out of every mean and reported on their own. A question a run does not answer counts as 0. A chunk repeated in one list counts once, at its first rank.</p>\n</section>\n</main>\n<footer><p>Made by reportgen '
    yield escape(environment.getattr((undefined(name='report') if l_0_report is missing else l_0_report), 'tool_version'))
    yield ' on '
    yield escape(environment.getattr((undefined(name='report') if l_0_report is missing else l_0_report), 'created'))
    yield '. This file is self-contained: it loads nothing from anywhere.</p></footer>\n<script>'
    yield escape(environment.getattr((undefined(name='assets') if l_0_assets is missing else l_0_assets), 'script'))
    yield '</script>\n</body>\n</html>\n'

blocks = {}
debug_info = '6=46&7=48&9=50&13=52&14=61&15=73&17=80&18=82&19=84&20=88&23=92&24=96&29=102&31=109&34=111&36=113&37=117&39=120&40=123&42=130&43=133&44=135&45=138&54=147&55=151&56=153&57=155&64=159&66=161&67=164&70=172&71=175&73=177&74=180&79=189&82=191&84=204&85=222&86=228&88=230&90=237&92=239&97=246&98=250&101=256&102=258&107=265&109=267&110=271&118=279&119=283'