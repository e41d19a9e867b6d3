# Generated from templates/_verdict_notes.md.j2 by scripts/make_compiled_templates.py
KEY = '232602c10294828514381b1c4c4e2c1149b9514511f47a8c81c6905fa23c65d5'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_verdict_notes.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_screen = resolve('screen')
    l_0_notes = missing
    try:
        t_1 = environment.filters['md']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'md' found.")
    pass
    l_0_notes = environment.getattr((undefined(name='screen') if l_0_screen is missing else l_0_screen), 'notes')
    context.vars['notes'] = l_0_notes
    context.exported_vars.add('notes')
    if environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'drops'):
        pass
        yield '\nLarge drops against the baseline, whatever the test says:\n\n'
        for l_1_drop in environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'drops'):
            _loop_vars = {}
            pass
            yield '- '
            if (environment.getattr(l_1_drop, 'mark') == 'worse'):
                pass
                yield '🔴'
            else:
                pass
                yield '🟠'
            yield ' '
            yield str(t_1(environment.getattr(l_1_drop, 'text')))
            yield ': **'
            yield str(t_1(environment.getattr(l_1_drop, 'mark')))
            yield '**\n'
        l_1_drop = missing
        if environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'drops_more'):
            pass
            yield '- … and '
            yield str(environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'drops_more'))
            yield ' more\n'
    if environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'clustered'):
        pass
        yield '\n'
        yield str(t_1(environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'clustered')))
        yield '\n'

blocks = {}
debug_info = '1=19&2=22&6=25&7=29&9=41&10=44&13=46&15=49'