# Generated from templates/_drilldown.md.j2 by scripts/make_compiled_templates.py
KEY = '7e7b8ba6bca10efa34143f9a85880be3ba0d0388a4395a746dc459b1d2dbc587'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_drilldown.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_drilldown = resolve('drilldown')
    try:
        t_1 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_2 = environment.filters['md']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'md' found.")
    try:
        t_3 = environment.filters['no_mentions']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'no_mentions' found.")
    pass
    if (undefined(name='drilldown') if l_0_drilldown is missing else l_0_drilldown):
        pass
        yield '\n## '
        yield str(t_2(environment.getattr((undefined(name='drilldown') if l_0_drilldown is missing else l_0_drilldown), 'title')))
        yield '\n\n'
        yield str(t_2(environment.getattr((undefined(name='drilldown') if l_0_drilldown is missing else l_0_drilldown), 'intro')))
        if environment.getattr((undefined(name='drilldown') if l_0_drilldown is missing else l_0_drilldown), 'markdown_note'):
            pass
            yield ' '
            yield str(t_2(environment.getattr((undefined(name='drilldown') if l_0_drilldown is missing else l_0_drilldown), 'markdown_note')))
        yield '\n'
        for l_1_panel in environment.getattr((undefined(name='drilldown') if l_0_drilldown is missing else l_0_drilldown), 'markdown_panels'):
            _loop_vars = {}
            pass
            yield '<details><summary>'
            yield str(t_3(environment.getattr(l_1_panel, 'markdown_summary')))
            yield '</summary>\n\n'
            for (l_2_where, l_2_segments) in environment.getattr(l_1_panel, 'evidence'):
                _loop_vars = {}
                pass
                yield '- '
                yield str(t_2(l_2_where))
                if l_2_segments:
                    pass
                    yield ': '
                    for (l_3_text, l_3_marked) in l_2_segments:
                        _loop_vars = {}
                        pass
                        if l_3_marked:
                            pass
                            yield ' **'
                            yield str(t_2(l_3_text))
                            yield '** '
                        else:
                            pass
                            yield str(t_2(l_3_text))
                    l_3_text = l_3_marked = missing
                yield '\n'
            l_2_where = l_2_segments = missing
            yield '\n| '
            yield str(t_1(context.eval_ctx, environment.getattr((undefined(name='drilldown') if l_0_drilldown is missing else l_0_drilldown), 'header'), ' | '))
            yield ' |\n| ---: | ---: | --- | --- | --- |\n'
            for l_2_row in environment.getattr(l_1_panel, 'chunks'):
                _loop_vars = {}
                pass
                yield '| '
                yield str(environment.getattr(l_2_row, 'rank'))
                yield ' | '
                yield str(t_2(environment.getattr(l_2_row, 'score')))
                yield ' | '
                yield str(t_2(environment.getattr(l_2_row, 'chunk_id')))
                yield ' | '
                yield str(environment.getattr(l_2_row, 'relevance'))
                yield ' | '
                for (l_3_text, l_3_marked) in environment.getattr(l_2_row, 'segments'):
                    _loop_vars = {}
                    pass
                    if l_3_marked:
                        pass
                        yield ' **'
                        yield str(t_2(l_3_text))
                        yield '** '
                    else:
                        pass
                        yield str(t_2(l_3_text))
                l_3_text = l_3_marked = missing
                if environment.getattr(l_2_row, 'cut'):
                    pass
                    yield ' '
                    yield str(t_2(environment.getattr(l_2_row, 'cut')))
                yield ' |\n'
            l_2_row = missing
            if environment.getattr(l_1_panel, 'landed'):
                pass
                yield '\n'
                yield str(t_2(environment.getattr(l_1_panel, 'landed')))
                yield '\n'
            yield '\n</details>\n'
        l_1_panel = missing
        yield '\n'

blocks = {}
debug_info = '2=30&4=33&6=35&8=41&9=45&11=47&12=51&16=70&18=72&19=76&21=102&23=105'