# Generated from templates/_drilldown.html.j2 by scripts/make_compiled_templates.py
KEY = '5929bd387f95e4cc642f146aeefece0f3fbb1ce8b2f0d21a6a92219de86fecd7'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_drilldown.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_drilldown = resolve('drilldown')
    try:
        t_1 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    pass
    if (undefined(name='drilldown') if l_0_drilldown is missing else l_0_drilldown):
        pass
        yield '<section id="drilldown" aria-labelledby="drilldown-title">\n  <h2 id="drilldown-title">'
        yield escape(environment.getattr((undefined(name='drilldown') if l_0_drilldown is missing else l_0_drilldown), 'title'))
        yield '</h2>\n  <p class="note">'
        yield escape(environment.getattr((undefined(name='drilldown') if l_0_drilldown is missing else l_0_drilldown), 'intro'))
        yield '</p>\n'
        for l_1_panel in environment.getattr((undefined(name='drilldown') if l_0_drilldown is missing else l_0_drilldown), 'panels'):
            _loop_vars = {}
            pass
            yield '  <details class="panel">\n    <summary>'
            yield escape(environment.getattr(l_1_panel, 'summary'))
            yield '</summary>\n    <h3>Evidence</h3>\n    <ul class="evidence">\n'
            t_2 = 1
            for (l_2_where, l_2_segments) in environment.getattr(l_1_panel, 'evidence'):
                _loop_vars = {}
                pass
                yield '      <li><span class="where">'
                yield escape(l_2_where)
                yield '</span>'
                if l_2_segments:
                    pass
                    yield '<blockquote>'
                    for (l_3_text, l_3_marked) in l_2_segments:
                        _loop_vars = {}
                        pass
                        if l_3_marked:
                            pass
                            yield '<mark>'
                            yield escape(l_3_text)
                            yield '</mark>'
                        else:
                            pass
                            yield escape(l_3_text)
                    l_3_text = l_3_marked = missing
                    yield '</blockquote>'
                yield '</li>\n'
                t_2 = 0
            l_2_where = l_2_segments = missing
            if t_2:
                pass
                yield '      <li class="none">'
                yield escape(environment.getattr((undefined(name='drilldown') if l_0_drilldown is missing else l_0_drilldown), 'no_evidence'))
                yield '</li>\n'
            yield '    </ul>\n    <div class="scroll">\n    <table class="sent">\n      <caption>'
            yield escape(environment.getattr((undefined(name='drilldown') if l_0_drilldown is missing else l_0_drilldown), 'caption'))
            yield '</caption>\n      <thead><tr>'
            for l_2_label in environment.getattr((undefined(name='drilldown') if l_0_drilldown is missing else l_0_drilldown), 'header'):
                _loop_vars = {}
                pass
                yield '<th scope="col">'
                yield escape(l_2_label)
                yield '</th>'
            l_2_label = missing
            yield '</tr></thead>\n      <tbody>\n'
            t_3 = 1
            for l_2_row in environment.getattr(l_1_panel, 'chunks'):
                _loop_vars = {}
                pass
                yield '        <tr class="'
                yield escape(environment.getattr(l_2_row, 'css'))
                yield '"><td>'
                yield escape(environment.getattr(l_2_row, 'rank'))
                yield '</td><td>'
                yield escape(environment.getattr(l_2_row, 'score'))
                yield '</td><td class="id">'
                yield escape(environment.getattr(l_2_row, 'chunk_id'))
                yield '</td><td>'
                yield escape(environment.getattr(l_2_row, 'relevance'))
                yield '</td><td class="chunk-text">'
                for (l_3_text, l_3_marked) in environment.getattr(l_2_row, 'segments'):
                    _loop_vars = {}
                    pass
                    if l_3_marked:
                        pass
                        yield '<mark>'
                        yield escape(l_3_text)
                        yield '</mark>'
                    else:
                        pass
                        yield escape(l_3_text)
                l_3_text = l_3_marked = missing
                if environment.getattr(l_2_row, 'cut'):
                    pass
                    yield '<span class="cut">'
                    yield escape(environment.getattr(l_2_row, 'cut'))
                    yield '</span>'
                yield '</td></tr>\n'
                t_3 = 0
            l_2_row = missing
            if t_3:
                pass
                yield '        <tr><td colspan="'
                yield escape(t_1(environment.getattr((undefined(name='drilldown') if l_0_drilldown is missing else l_0_drilldown), 'header')))
                yield '" class="none">'
                yield escape(environment.getattr((undefined(name='drilldown') if l_0_drilldown is missing else l_0_drilldown), 'nothing_sent'))
                yield '</td></tr>\n'
            yield '      </tbody>\n    </table>\n    </div>\n'
            if environment.getattr(l_1_panel, 'landed'):
                pass
                yield '    <p class="landed">'
                yield escape(environment.getattr(l_1_panel, 'landed'))
                yield '</p>\n'
            yield '  </details>\n'
        l_1_panel = missing
        if environment.getattr((undefined(name='drilldown') if l_0_drilldown is missing else l_0_drilldown), 'note'):
            pass
            yield '  <p class="note">'
            yield escape(environment.getattr((undefined(name='drilldown') if l_0_drilldown is missing else l_0_drilldown), 'note'))
            yield '</p>\n'
        yield '</section>\n'

blocks = {}
debug_info = '2=18&4=21&5=23&6=25&8=29&11=32&12=36&14=60&19=63&20=65&22=74&23=78&25=111&30=116&31=119&35=123&36=126'