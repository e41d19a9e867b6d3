# Generated from templates/_first_screen.md.j2 by scripts/make_compiled_templates.py
KEY = '3d8a7f3da1bd277ac4eaee660e2297be6972afcfa47b71355a74e0e78a3fb1ea'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_first_screen.md.j2'

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
    l_0_screen = missing
    try:
        t_1 = environment.filters['md']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'md' found.")
    try:
        t_2 = environment.filters['summary_text']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'summary_text' found.")
    pass
    l_0_screen = (undefined(name='first_screen') if l_0_first_screen is missing else l_0_first_screen)
    context.vars['screen'] = l_0_screen
    context.exported_vars.add('screen')
    if environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'):
        pass
        yield '\n## '
        yield str(t_1(environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'title')))
        yield '\n\n'
        for l_1_message in environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'failed'):
            _loop_vars = {}
            pass
            yield '- ❌ '
            yield str(t_1(l_1_message))
            yield '\n'
        l_1_message = missing
        if environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'passed_rules'):
            pass
            yield '\n<details><summary>'
            yield str(environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'passed_summary'))
            yield '</summary>\n\n'
            for l_1_message in environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'passed_rules'):
                _loop_vars = {}
                pass
                yield '- ✅ '
                yield str(t_1(l_1_message))
                yield '\n'
            l_1_message = missing
            yield '\n</details>\n'
        if environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'notice'):
            pass
            if (environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'failed') or environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'passed_rules')):
                pass
                yield '\n'
            yield '> [!NOTE]\n> '
            yield str(t_1(environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'gate'), 'notice')))
            yield '\n'
    yield '\n## '
    yield str(t_1(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'title')))
    yield '\n\n'
    yield str(t_1(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'why_line')))
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
        yield str(t_1(environment.getattr(l_1_figure, 'label')))
        yield ' | **'
        yield str(t_1(environment.getattr(l_1_figure, 'value')))
        yield '** | '
        yield str(t_1(environment.getattr(l_1_figure, 'interval')))
        yield ' |'
        if environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'verdict'):
            pass
            yield ' '
            yield str(t_1(environment.getattr(l_1_figure, 'change')))
            yield ': **'
            yield str(t_1(environment.getattr(l_1_figure, 'verdict')))
            yield '** |'
        yield '\n'
    l_1_figure = missing
    if environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'attention'):
        pass
        yield '\n'
        for l_1_line in environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'attention'):
            _loop_vars = {}
            pass
            yield '- '
            yield str(t_1(l_1_line))
            yield '\n'
        l_1_line = missing
    template = environment.get_template('_verdict_notes.md.j2', '_first_screen.md.j2')
    gen = template.root_render_func(template.new_context(context.get_all(), True, {'screen': l_0_screen, 'table': l_0_table, 'view': l_0_view}))
    try:
        for event in gen:
            yield event
    finally: gen.close()
    if environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'cells'):
        pass
        l_0_view = environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'cells')
        context.vars['view'] = l_0_view
        context.exported_vars.add('view')
        yield '\n### The four cells ('
        yield str(t_1(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'run')))
        yield ', '
        yield str(t_1(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'sent')))
        yield ')\n\n**'
        yield str(t_1(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'conclusion')))
        yield '**\n\n| | answer correct | answer wrong |\n| --- | --- | --- |\n'
        for (l_1_header, l_1_cells) in environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'rows'):
            _loop_vars = {}
            pass
            yield '| **'
            yield str(t_1(l_1_header))
            yield '** |'
            for l_2_cell in l_1_cells:
                _loop_vars = {}
                pass
                yield ' **'
                yield str(environment.getattr(l_2_cell, 'count'))
                yield '** ('
                yield str(t_1(environment.getattr(l_2_cell, 'share')))
                yield ')'
                if (environment.getattr(l_2_cell, 'key') in environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'cells_then')):
                    pass
                    yield ', was '
                    yield str(environment.getitem(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'cells_then'), environment.getattr(l_2_cell, 'key')))
                yield ' '
                yield str(t_1(environment.getattr(l_2_cell, 'label')))
                if environment.getattr(l_2_cell, 'stale'):
                    pass
                    yield ', '
                    yield str(environment.getattr(l_2_cell, 'stale'))
                    yield ' with stale gold'
                if environment.getattr(l_2_cell, 'focus'):
                    pass
                    yield ' ◀ **larger failure cell**'
                yield ' |'
            l_2_cell = missing
            yield '\n'
        l_1_header = l_1_cells = missing
        yield '\n'
        yield str(t_1(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'pass_rate')))
        yield '\n'
        if ((undefined(name='predictors') if l_0_predictors is missing else l_0_predictors) and environment.getattr((undefined(name='predictors') if l_0_predictors is missing else l_0_predictors), 'headroom_line')):
            pass
            yield '\n'
            yield str(t_1(environment.getattr((undefined(name='predictors') if l_0_predictors is missing else l_0_predictors), 'headroom_line')))
            yield ' What each assumes: "What predicts the answers" below.\n'
        yield '\n'
        yield str(t_1(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'rule_note')))
        yield '\n\n**'
        yield str(t_1(environment.getattr(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'coverage'), 'caption')))
        yield '**\n\n'
        l_0_table = environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'coverage')
        context.vars['table'] = l_0_table
        context.exported_vars.add('table')
        template = environment.get_template('_table.md.j2', '_first_screen.md.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'screen': l_0_screen, 'table': l_0_table, 'view': l_0_view}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
        if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'stale_note'):
            pass
            yield '\n'
            yield str(t_1(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'stale_note')))
            yield '\n'
        yield '\n<details><summary>Question ids per cell</summary>\n\n'
        for (l_1__, l_1_cells) in environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'rows'):
            _loop_vars = {}
            pass
            for l_2_cell in l_1_cells:
                _loop_vars = {}
                pass
                yield '- '
                yield str(t_1(environment.getattr(l_2_cell, 'label')))
                yield ' ('
                yield str(environment.getattr(l_2_cell, 'count'))
                yield '): '
                yield str(t_1(environment.getattr(l_2_cell, 'ids_text')))
                yield '\n'
            l_2_cell = missing
        l_1__ = l_1_cells = missing
        yield '\n</details>\n'
        if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'other_runs'):
            pass
            yield '\n**'
            yield str(t_1(environment.getattr(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'other_runs'), 'caption')))
            yield '**\n\n'
            l_0_table = environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'other_runs')
            context.vars['table'] = l_0_table
            context.exported_vars.add('table')
            template = environment.get_template('_table.md.j2', '_first_screen.md.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'screen': l_0_screen, 'table': l_0_table, 'view': l_0_view}))
            try:
                for event in gen:
                    yield event
            finally: gen.close()
    else:
        pass
        yield '\nNo verdicts given, so failures cannot be split into retrieval and generation, and there is no end-to-end pass rate. Pass the end-to-end verdicts with `--verdicts FILE`.\n'
    if environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'alerts'):
        pass
        yield '\n> [!CAUTION]\n'
        l_1_loop = missing
        for l_1_message, l_1_loop in LoopContext(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'alerts'), undefined):
            _loop_vars = {}
            pass
            yield '> '
            yield str(t_1(l_1_message))
            yield '\n'
            if (not environment.getattr(l_1_loop, 'last')):
                pass
                yield '>\n'
        l_1_loop = l_1_message = missing
    if environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'others'):
        pass
        yield '\n**'
        yield str(t_1(environment.getattr(environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'others'), 'caption')))
        yield '**\n\n'
        l_0_table = environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'others')
        context.vars['table'] = l_0_table
        context.exported_vars.add('table')
        template = environment.get_template('_table.md.j2', '_first_screen.md.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'screen': l_0_screen, 'table': l_0_table, 'view': l_0_view}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
    for l_1_group in environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'warning_groups'):
        _loop_vars = {}
        pass
        yield '\n<details><summary>⚠ '
        yield str(t_2(environment.getattr(l_1_group, 'summary')))
        yield '</summary>\n\n'
        for l_2_message in environment.getattr(l_1_group, 'messages'):
            _loop_vars = {}
            pass
            yield '- '
            yield str(t_1(l_2_message))
            yield '\n'
        l_2_message = missing
        yield '\n</details>\n'
    l_1_group = missing

blocks = {}
debug_info = '1=28&2=31&4=34&6=36&7=40&9=43&11=46&13=48&14=52&19=56&20=58&24=62&28=65&30=67&32=69&34=73&36=77&37=81&40=96&42=99&43=103&46=106&47=112&48=114&50=118&52=122&56=124&57=128&61=157&62=159&64=162&67=165&69=167&71=169&72=172&73=178&75=181&80=184&81=187&82=191&87=200&89=203&91=205&92=208&98=217&101=221&102=225&103=227&108=231&110=234&112=236&113=239&115=245&117=249&119=251&120=255'