# Generated from templates/_warning_digest.html.j2 by scripts/make_compiled_templates.py
KEY = 'a9bd70b595d79ecec885764f6e2c6430592fe47a1280f611a9a99ee513efb899'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_warning_digest.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_first_screen = resolve('first_screen')
    l_0_notes = missing
    pass
    l_0_notes = environment.getattr((undefined(name='first_screen') if l_0_first_screen is missing else l_0_first_screen), 'notes')
    context.vars['notes'] = l_0_notes
    context.exported_vars.add('notes')
    if environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'digest'):
        pass
        yield '<p class="digest"><span aria-hidden="true">⚠</span> Warnings: '
        l_1_loop = missing
        for l_1_item, l_1_loop in LoopContext(environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'digest'), undefined):
            _loop_vars = {}
            pass
            yield '<a href="#'
            yield escape(environment.getattr(l_1_item, 'anchor'))
            yield '">'
            yield escape(environment.getattr(l_1_item, 'text'))
            yield '</a>'
            if (not environment.getattr(l_1_loop, 'last')):
                pass
                yield ' · '
        l_1_loop = l_1_item = missing
        yield '</p>\n'

blocks = {}
debug_info = '2=13&3=16&4=20'