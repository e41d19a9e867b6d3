# Generated from templates/_questions.html.j2 by scripts/make_compiled_templates.py
KEY = '62c5f9345be2d187ccdf1d4661ce00983fc82a0d381d506136b371dd36b2cf85'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_questions.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_questions_cut = resolve('questions_cut')
    l_0_questions = resolve('questions')
    l_0_questions_total = resolve('questions_total')
    l_0_per_question_file = resolve('per_question_file')
    l_0_questions_counted = resolve('questions_counted')
    l_0_report = resolve('report')
    l_0_has_cells = resolve('has_cells')
    l_0_first_run_note = resolve('first_run_note')
    l_0_questions_default = resolve('questions_default')
    l_0_questions_attention = resolve('questions_attention')
    l_0_question_filters = resolve('question_filters')
    l_0_question_runs = resolve('question_runs')
    try:
        t_1 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    pass
    yield '<section id="questions" aria-labelledby="questions-title">\n  <h2 id="questions-title">Questions</h2>\n  <p class="note">\n'
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
        yield ', all in the table; the values behind every mean are in <a href="'
        yield escape((undefined(name='per_question_file') if l_0_per_question_file is missing else l_0_per_question_file))
        yield '">'
        yield escape((undefined(name='per_question_file') if l_0_per_question_file is missing else l_0_per_question_file))
        yield '</a>.\n'
    yield '  Per run: whether a gold chunk is in the top '
    yield escape(environment.getattr((undefined(name='report') if l_0_report is missing else l_0_report), 'context_k'))
    yield ' (✓) or not (✗, with the rank of the first gold chunk when it comes later)'
    if (undefined(name='has_cells') if l_0_has_cells is missing else l_0_has_cells):
        pass
        yield ", the question's cell"
    yield ', and, folded, the top '
    yield escape(environment.getattr((undefined(name='report') if l_0_report is missing else l_0_report), 'context_k'))
    yield ' chunk ids in rank order (gold ones marked). '
    yield escape((undefined(name='first_run_note') if l_0_first_run_note is missing else l_0_first_run_note))
    yield '. Sort by a column\'s header; the filters below keep their view in the page\'s address, so a link shows the same rows.\n  </p>\n  <form id="question-filters" class="question-filters" data-default="'
    yield escape((undefined(name='questions_default') if l_0_questions_default is missing else l_0_questions_default))
    yield '" hidden>\n    <label>show <select name="show">\n      <option value="attention">failed or changed ('
    yield escape((undefined(name='questions_attention') if l_0_questions_attention is missing else l_0_questions_attention))
    yield ')</option>\n      <option value="all">all ('
    yield escape(t_1((undefined(name='questions') if l_0_questions is missing else l_0_questions)))
    yield ')</option>\n    </select></label>\n'
    for l_1_filter in (undefined(name='question_filters') if l_0_question_filters is missing else l_0_question_filters):
        _loop_vars = {}
        pass
        yield '    <label>'
        yield escape(environment.getattr(l_1_filter, 'label'))
        yield ' <select name="'
        yield escape(environment.getattr(l_1_filter, 'name'))
        yield '">\n      <option value="">any</option>\n'
        for (l_2_value, l_2_label) in environment.getattr(l_1_filter, 'options'):
            _loop_vars = {}
            pass
            yield '<option value="'
            yield escape(l_2_value)
            yield '">'
            yield escape(l_2_label)
            yield '</option>'
        l_2_value = l_2_label = missing
        yield '    </select></label>\n'
    l_1_filter = missing
    yield '    <label>text <input type="search" name="q" placeholder="id, chunk id, words…"></label>\n    <output aria-live="polite"></output>\n  </form>\n  <div class="scroll">\n  <table id="question-table" class="questions sortable">\n    <caption>Questions and what each run returned</caption>\n    <thead>\n      <tr><th scope="col">id</th><th scope="col">question</th>\n'
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
        yield '      <tr'
        for (l_2_facet, l_2_value) in context.call(environment.getattr(environment.getattr(l_1_row, 'facets'), 'items'), _loop_vars=_loop_vars):
            _loop_vars = {}
            pass
            yield ' data-'
            yield escape(l_2_facet)
            yield '="'
            yield escape(l_2_value)
            yield '"'
        l_2_facet = l_2_value = missing
        yield '>\n        <th scope="row">'
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
        if environment.getattr(environment.getattr(l_1_row, 'facets'), 'stale'):
            pass
            yield ' <span class="tag">stale gold</span>'
        yield '</span>'
        if environment.getattr(l_1_row, 'move'):
            pass
            yield '<a class="move-tag" href="#changed-'
            yield escape(environment.getattr(l_1_row, 'qid'))
            yield '">moved: '
            yield escape(environment.getattr(l_1_row, 'move'))
            yield '</a>'
        if environment.getattr(environment.getattr(l_1_row, 'facets'), 'change'):
            pass
            yield ' <span class="tag">measures '
            yield escape(environment.getattr(environment.getattr(l_1_row, 'facets'), 'change'))
            yield '</span>'
        yield '</td>\n'
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
            yield '<details class="top"><summary>top '
            yield escape(environment.getattr((undefined(name='report') if l_0_report is missing else l_0_report), 'context_k'))
            yield '</summary><ol class="ranked">'
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
            yield '</ol></details></td>'
        l_2_loop = l_2_run = missing
        yield '      </tr>\n'
    l_1_loop = l_1_row = missing
    yield '    </tbody>\n  </table>\n  </div>\n</section>\n'

blocks = {}
debug_info = '6=30&7=33&9=44&11=51&13=61&15=63&16=65&18=67&19=71&21=75&32=88&35=101&36=105&37=115&38=119&39=145'