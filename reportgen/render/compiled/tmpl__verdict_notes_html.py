# Generated from templates/_verdict_notes.html.j2 by scripts/make_compiled_templates.py
KEY = 'b61c1fbc47cfc2aea068fd8a980c780162c735e02f1864eed8b26c4ae82549c1'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_verdict_notes.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_first_screen = resolve('first_screen')
    l_0_notes = missing
    try:
        t_1 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    pass
    l_0_notes = environment.getattr((undefined(name='first_screen') if l_0_first_screen is missing else l_0_first_screen), 'notes')
    context.vars['notes'] = l_0_notes
    context.exported_vars.add('notes')
    if (environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'drops') or environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'clustered')):
        pass
        yield '<div class="verdict-notes">\n'
        if environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'drops'):
            pass
            yield '  <details class="drops-more"><summary>'
            yield escape((t_1(environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'drops')) + environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'drops_more')))
            yield ' large drops against the baseline, whatever the test says</summary>\n  <ul class="drops">\n'
            for l_1_drop in environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'drops'):
                _loop_vars = {}
                pass
                yield '    <li class="'
                yield escape(environment.getattr(l_1_drop, 'css'))
                yield '">'
                yield escape(environment.getattr(l_1_drop, 'text'))
                yield ': <span class="drop-mark">'
                yield escape(environment.getattr(l_1_drop, 'mark'))
                yield '</span></li>\n'
            l_1_drop = missing
            if environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'drops_more'):
                pass
                yield '<li>… and '
                yield escape(environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'drops_more'))
                yield ' more in <a href="#baseline">the baseline section</a></li>'
            yield '  </ul>\n  </details>\n'
        if environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'clustered'):
            pass
            yield '  <p class="note clustered">'
            yield escape(environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'clustered'))
            yield '</p>\n'
        yield '</div>\n'

blocks = {}
debug_info = '2=19&3=22&5=25&7=28&9=30&10=34&12=41&16=47&17=50'