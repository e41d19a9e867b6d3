# Generated from templates/_table.md.j2 by scripts/make_compiled_templates.py
KEY = '040584a2efc16ccc41375ce7afa614c273440483260473389768385e95216fcb'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_table.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_table = resolve('table')
    try:
        t_1 = environment.filters['md']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'md' found.")
    pass
    yield '|'
    for l_1_label in environment.getattr((undefined(name='table') if l_0_table is missing else l_0_table), 'header'):
        _loop_vars = {}
        pass
        yield ' '
        yield str(t_1(l_1_label))
        yield ' |'
    l_1_label = missing
    yield '\n|'
    l_1_loop = missing
    for l_1_label, l_1_loop in LoopContext(environment.getattr((undefined(name='table') if l_0_table is missing else l_0_table), 'header'), undefined):
        _loop_vars = {}
        pass
        yield ' '
        yield str(('---' if environment.getattr(l_1_loop, 'first') else '---:'))
        yield ' |'
    l_1_loop = l_1_label = missing
    yield '\n'
    for l_1_row in environment.getattr((undefined(name='table') if l_0_table is missing else l_0_table), 'rows'):
        _loop_vars = {}
        pass
        yield '|'
        for l_2_cell in l_1_row:
            _loop_vars = {}
            pass
            yield ' '
            if environment.getattr(l_2_cell, 'best'):
                pass
                yield '**'
                yield str(t_1(environment.getattr(l_2_cell, 'text')))
                yield '**'
            else:
                pass
                yield str(t_1(environment.getattr(l_2_cell, 'text')))
            if environment.getattr(l_2_cell, 'note'):
                pass
                yield ' <sub>'
                yield str(t_1(environment.getattr(l_2_cell, 'note')))
                yield '</sub>'
            yield ' |'
        l_2_cell = missing
        yield '\n'
    l_1_row = missing

blocks = {}
debug_info = '1=19&3=28&5=36&6=40'