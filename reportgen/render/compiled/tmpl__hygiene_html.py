# Generated from templates/_hygiene.html.j2 by scripts/make_compiled_templates.py
KEY = '7995a2dd8b9c8163eccb7c4f7c843f1d41ced090ca5b80f8d9eee4b9df623c65'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_hygiene.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_hygiene = resolve('hygiene')
    pass
    if (undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene):
        pass
        yield '<div id="hygiene">\n  <p><strong>Index versions:</strong> '
        yield escape(environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'provenance'))
        yield '</p>\n  <h3>'
        yield escape(environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'stale_title'))
        yield '</h3>\n  <p class="note">'
        yield escape(environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'stale_note'))
        yield '</p>\n'
        if environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'stale_rows'):
            pass
            yield '  <details'
            if (not environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'stale_collapsed')):
                pass
                yield ' open'
            yield '>\n  <summary>'
            yield escape(environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'stale_rows_summary'))
            yield '</summary>\n  <div class="scroll">\n  <table class="stale">\n    <thead><tr><th scope="col">question</th><th scope="col">gold ids not found</th></tr></thead>\n    <tbody>\n'
            for (l_1_qid, l_1_ids) in environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'stale_rows'):
                _loop_vars = {}
                pass
                yield '      <tr><th scope="row">'
                yield escape(l_1_qid)
                yield '</th><td class="ids">'
                yield escape(l_1_ids)
                yield '</td></tr>\n'
            l_1_qid = l_1_ids = missing
            yield '    </tbody>\n  </table>\n  </div>\n'
            if environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'stale_rows_note'):
                pass
                yield '<p class="note">'
                yield escape(environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'stale_rows_note'))
                yield '</p>'
            yield '  </details>\n'
        if environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'without_stale'):
            pass
            yield '  <ul>\n'
            for l_1_line in environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'without_stale'):
                _loop_vars = {}
                pass
                yield '    <li>'
                yield escape(l_1_line)
                yield '</li>\n'
            l_1_line = missing
            yield '  </ul>\n'
        if environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'leaks'):
            pass
            yield '  <h3>Forbidden chunks shown to the model</h3>\n'
            for l_1_line in environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'leaks'):
                _loop_vars = {}
                pass
                yield '  <p class="headline">'
                yield escape(l_1_line)
                yield '</p>\n'
            l_1_line = missing
        yield '</div>\n'

blocks = {}
debug_info = '1=12&3=15&4=17&5=19&6=21&7=24&8=28&13=30&14=34&19=40&22=46&24=49&25=53&29=57&31=60&32=64'