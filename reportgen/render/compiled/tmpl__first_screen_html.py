# Generated from templates/_first_screen.html.j2 by scripts/make_compiled_templates.py
KEY = '5c2b495309652e11c450cf62559a2e8d15c6027c3467df058baae87e03132e13'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_first_screen.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_first_screen = resolve('first_screen')
    l_0_view = resolve('view')
    l_0_predictors = resolve('predictors')
    l_0_table = resolve('table')
    l_0_screen = l_0_transitions_matrix = missing
    pass
    l_0_screen = (undefined(name='first_screen') if l_0_first_screen is missing else l_0_first_screen)
    context.vars['screen'] = l_0_screen
    context.exported_vars.add('screen')
    yield '<section id="verdict" class="'
    yield escape(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'css'))
    yield '" aria-labelledby="verdict-title">\n'
    if environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'):
        pass
        yield '  <div id="gate" class="'
        yield escape(environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'css'))
        yield '">\n    <h2 class="gate-title"><span aria-hidden="true">'
        yield escape(environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'mark'))
        yield '</span> '
        yield escape(environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'title'))
        yield '</h2>\n'
        if environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'failed'):
            pass
            yield '    <ul>\n'
            for l_1_message in environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'failed_shown'):
                _loop_vars = {}
                pass
                yield '      <li class="failed">'
                yield escape(l_1_message)
                yield '</li>\n'
            l_1_message = missing
            yield '    </ul>\n'
        if environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'failed_folded'):
            pass
            yield '    <details><summary>'
            yield escape(environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'folded_summary'))
            yield '</summary>\n    <ul>\n'
            for l_1_message in environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'failed_folded'):
                _loop_vars = {}
                pass
                yield '      <li class="failed">'
                yield escape(l_1_message)
                yield '</li>\n'
            l_1_message = missing
            yield '    </ul>\n    </details>\n'
        if environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'passed_rules'):
            pass
            yield '    <details><summary>'
            yield escape(environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'passed_summary'))
            yield '</summary>\n    <ul>\n'
            for l_1_message in environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'passed_rules'):
                _loop_vars = {}
                pass
                yield '      <li class="passed">'
                yield escape(l_1_message)
                yield '</li>\n'
            l_1_message = missing
            yield '    </ul>\n    </details>\n'
        if environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'notice'):
            pass
            yield '    <p class="note">'
            yield escape(environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'notice'))
            yield '</p>\n'
        yield '  </div>\n'
    yield '  <h2 id="verdict-title" class="answer">'
    yield escape(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'title'))
    yield '</h2>\n  <p class="why">'
    yield escape(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'why_line'))
    yield '</p>\n'
    template = environment.get_template('_warning_digest.html.j2', '_first_screen.html.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'screen': l_0_screen, 'table': l_0_table, 'transitions_matrix': l_0_transitions_matrix, 'view': l_0_view}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    yield '  <div class="figures-row">\n'
    for l_1_figure in environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'figures'):
        _loop_vars = {}
        pass
        yield '    <div class="'
        yield escape(environment.getattr(l_1_figure, 'css'))
        yield '">\n      <span class="figure-label">'
        yield escape(environment.getattr(l_1_figure, 'label'))
        yield '</span>\n      <span class="figure-value">'
        yield escape(environment.getattr(l_1_figure, 'value'))
        yield '</span>\n'
        if environment.getattr(l_1_figure, 'interval'):
            pass
            yield '<span class="figure-note">95% interval '
            yield escape(environment.getattr(l_1_figure, 'interval'))
            yield '</span>'
        if environment.getattr(l_1_figure, 'change'):
            pass
            yield '<span class="figure-change">'
            yield escape(environment.getattr(l_1_figure, 'change'))
            yield ': <strong class="moved">'
            yield escape(environment.getattr(l_1_figure, 'verdict'))
            yield '</strong></span>'
        yield '    </div>\n'
    l_1_figure = missing
    yield '  </div>\n'
    if environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'attention'):
        pass
        yield '  <ul id="attention" class="attention">\n'
        for l_1_line in environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'attention'):
            _loop_vars = {}
            pass
            yield '    <li>'
            yield escape(l_1_line)
            yield '</li>\n'
        l_1_line = missing
        yield '  </ul>\n'
    template = environment.get_template('_verdict_notes.html.j2', '_first_screen.html.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'screen': l_0_screen, 'table': l_0_table, 'transitions_matrix': l_0_transitions_matrix, 'view': l_0_view}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    if environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'replicates'):
        pass
        yield '<p class="note replicates">'
        yield escape(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'replicates'))
        yield '</p>'
    yield '  <div id="four-cells">\n'
    if environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'cells'):
        pass
        l_0_view = environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'cells')
        context.vars['view'] = l_0_view
        context.exported_vars.add('view')
        yield '  <div class="cells-row">\n  <table class="cells">\n    <caption>The four cells: '
        yield escape(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'run'))
        yield ', '
        yield escape(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'sent'))
        yield ', answerable questions with a verdict</caption>\n    <thead><tr><td></td><th scope="col">answer correct</th><th scope="col">answer wrong</th></tr></thead>\n    <tbody>\n'
        for (l_1_header, l_1_cells) in environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'rows'):
            _loop_vars = {}
            pass
            yield '      <tr>\n        <th scope="row">'
            yield escape(l_1_header)
            yield '</th>\n'
            for l_2_cell in l_1_cells:
                _loop_vars = {}
                pass
                yield '        <td class="cell cell-'
                yield escape(environment.getattr(l_2_cell, 'key'))
                if environment.getattr(l_2_cell, 'focus'):
                    pass
                    yield ' focus'
                yield '">\n          <span class="cell-count">'
                yield escape(environment.getattr(l_2_cell, 'count'))
                yield '</span> <span class="cell-share">('
                yield escape(environment.getattr(l_2_cell, 'share'))
                yield ')</span>'
                if (environment.getattr(l_2_cell, 'key') in environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'cells_then')):
                    pass
                    yield ' <span class="cell-then">was '
                    yield escape(environment.getitem(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'cells_then'), environment.getattr(l_2_cell, 'key')))
                    yield '</span>'
                yield '          <strong class="cell-label">'
                yield escape(environment.getattr(l_2_cell, 'label'))
                yield '</strong>'
                if environment.getattr(l_2_cell, 'focus'):
                    pass
                    yield ' <span class="tag">larger failure cell</span>'
                if environment.getattr(l_2_cell, 'stale'):
                    pass
                    yield '<span class="note">'
                    yield escape(environment.getattr(l_2_cell, 'stale'))
                    yield ' with stale gold</span>'
                yield '        </td>\n'
            l_2_cell = missing
            yield '      </tr>\n'
        l_1_header = l_1_cells = missing
        yield '    </tbody>\n  </table>\n  <div class="cells-text">\n  <p class="conclusion">'
        yield escape(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'conclusion'))
        yield '</p>\n  <p class="pass-rate">'
        yield escape(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'pass_rate'))
        yield '</p>\n'
        if ((undefined(name='predictors') if l_0_predictors is missing else l_0_predictors) and environment.getattr((undefined(name='predictors') if l_0_predictors is missing else l_0_predictors), 'headroom_line')):
            pass
            yield '<p class="headroom">'
            yield escape(environment.getattr((undefined(name='predictors') if l_0_predictors is missing else l_0_predictors), 'headroom_line'))
            yield ' <a href="#predictors">What each assumes</a></p>'
        if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'trials'):
            pass
            yield '<p class="trials">'
            yield escape(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'trials'))
            yield '</p>'
        yield '  <p class="note rule-note">'
        yield escape(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'rule_note'))
        yield '</p>\n'
        l_0_table = environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'coverage')
        context.vars['table'] = l_0_table
        context.exported_vars.add('table')
        template = environment.get_template('_table.html.j2', '_first_screen.html.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'screen': l_0_screen, 'table': l_0_table, 'transitions_matrix': l_0_transitions_matrix, 'view': l_0_view}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
        if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'stale_note'):
            pass
            yield '<p class="note">'
            yield escape(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'stale_note'))
            yield '</p>'
        yield '  <details class="cell-ids"><summary>Question ids per cell</summary>\n  <ul>\n'
        for (l_1__, l_1_cells) in environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'rows'):
            _loop_vars = {}
            pass
            for l_2_cell in l_1_cells:
                _loop_vars = {}
                pass
                yield '    <li><strong>'
                yield escape(environment.getattr(l_2_cell, 'label'))
                yield '</strong> ('
                yield escape(environment.getattr(l_2_cell, 'count'))
                yield '): <span class="ids">'
                yield escape(environment.getattr(l_2_cell, 'ids_text'))
                yield '</span></li>\n'
            l_2_cell = missing
        l_1__ = l_1_cells = missing
        yield '  </ul>\n  </details>\n  </div>\n  </div>\n'
        if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'other_runs'):
            pass
            l_0_table = environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'other_runs')
            context.vars['table'] = l_0_table
            context.exported_vars.add('table')
            template = environment.get_template('_table.html.j2', '_first_screen.html.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'screen': l_0_screen, 'table': l_0_table, 'transitions_matrix': l_0_transitions_matrix, 'view': l_0_view}))
            try:
                for event in gen:
                    yield event
            finally: gen.close()
    else:
        pass
        yield '  <p class="note">No verdicts given, so failures cannot be split into retrieval and generation, and there is no end-to-end pass rate. Pass the end-to-end verdicts with <code>--verdicts FILE</code> (JSONL or CSV with <code>id, correct</code>, promptfoo, DeepEval or ragas output).</p>\n'
    yield '  </div>\n'
    included_template = environment.get_template('_transitions.html.j2', '_first_screen.html.j2').make_module(context.get_all(), True, {'screen': l_0_screen, 'table': l_0_table, 'transitions_matrix': l_0_transitions_matrix, 'view': l_0_view})
    l_0_transitions_matrix = getattr(included_template, 'transitions_matrix', missing)
    if l_0_transitions_matrix is missing:
        l_0_transitions_matrix = undefined(f"the template {included_template.__name__!r} (imported on line 106 in '_first_screen.html.j2') does not export the requested name 'transitions_matrix'", name='transitions_matrix')
    context.vars['transitions_matrix'] = l_0_transitions_matrix
    context.exported_vars.discard('transitions_matrix')
    yield '  '
    yield escape(context.call((undefined(name='transitions_matrix') if l_0_transitions_matrix is missing else l_0_transitions_matrix)))
    yield '\n'
    if environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'alerts'):
        pass
        yield '  <div id="alerts" class="warnings alerts" role="note">\n'
        for l_1_message in environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'alerts'):
            _loop_vars = {}
            pass
            yield '    <p><span aria-hidden="true">⚠</span> '
            yield escape(l_1_message)
            yield ' <a href="#inputs">Inputs and hygiene</a></p>\n'
        l_1_message = missing
        yield '  </div>\n'
    if environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'others'):
        pass
        l_0_table = environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'others')
        context.vars['table'] = l_0_table
        context.exported_vars.add('table')
        template = environment.get_template('_table.html.j2', '_first_screen.html.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'screen': l_0_screen, 'table': l_0_table, 'transitions_matrix': l_0_transitions_matrix, 'view': l_0_view}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
    l_1_loop = missing
    for l_1_group, l_1_loop in LoopContext(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'warning_groups'), undefined):
        _loop_vars = {}
        pass
        yield '  <details id="warnings-'
        yield escape(environment.getattr(l_1_loop, 'index'))
        yield '" class="warning-line">\n    <summary><span aria-hidden="true">⚠</span> '
        yield escape(environment.getattr(l_1_group, 'summary'))
        yield '</summary>\n    <ul>\n'
        for l_2_message in environment.getattr(l_1_group, 'messages'):
            _loop_vars = {}
            pass
            yield '      <li>'
            yield escape(l_2_message)
            yield '</li>\n'
        l_2_message = missing
        yield '    </ul>\n  </details>\n'
    l_1_loop = l_1_group = missing
    yield '</section>\n'

blocks = {}
debug_info = '1=16&2=20&3=22&4=25&5=27&6=31&8=34&9=38&13=42&14=45&16=47&17=51&22=55&23=58&25=60&26=64&31=68&32=71&36=75&37=77&38=79&40=86&41=90&42=92&43=94&44=96&45=101&49=111&51=114&52=118&56=122&57=128&59=134&60=136&63=140&66=144&68=148&69=150&70=154&71=159&72=169&73=174&81=184&82=186&83=188&84=193&85=199&86=201&87=204&88=210&91=216&92=223&98=232&99=234&100=237&106=247&107=254&108=256&110=259&111=263&115=267&116=269&117=272&119=279&120=283&121=285&123=287&124=291'