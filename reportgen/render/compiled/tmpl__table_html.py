# Generated from templates/_table.html.j2 by scripts/make_compiled_templates.py
KEY = '47e097baa21777d13d83a3b23942f002c7f6b43e6038b561927a12b1e8ba9754'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_table.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_table = resolve('table')
    pass
    yield '<div class="scroll">\n<table class="'
    yield escape(environment.getattr((undefined(name='table') if l_0_table is missing else l_0_table), 'css'))
    yield '">\n  <caption>'
    yield escape(environment.getattr((undefined(name='table') if l_0_table is missing else l_0_table), 'caption'))
    yield '</caption>\n  <thead><tr>'
    for l_1_label in environment.getattr((undefined(name='table') if l_0_table is missing else l_0_table), 'header'):
        _loop_vars = {}
        pass
        yield '<th scope="col">'
        yield escape(l_1_label)
        yield '</th>'
    l_1_label = missing
    yield '</tr></thead>\n  <tbody>\n'
    l_1_loop = missing
    for l_1_row, l_1_loop in LoopContext(environment.getattr((undefined(name='table') if l_0_table is missing else l_0_table), 'rows'), undefined):
        _loop_vars = {}
        pass
        yield '    <tr>'
        l_2_loop = missing
        for l_2_cell, l_2_loop in LoopContext(l_1_row, undefined):
            _loop_vars = {}
            pass
            if environment.getattr(l_2_loop, 'first'):
                pass
                yield '<th scope="row">'
                yield escape(environment.getattr(l_2_cell, 'text'))
                yield '</th>'
            else:
                pass
                yield '<td'
                if environment.getattr(l_2_cell, 'classes'):
                    pass
                    yield ' class="'
                    yield escape(environment.getattr(l_2_cell, 'classes'))
                    yield '"'
                if environment.getattr((undefined(name='table') if l_0_table is missing else l_0_table), 'sortable'):
                    pass
                    yield ' data-value="'
                    yield escape(environment.getattr(l_2_cell, 'sort_value'))
                    yield '"'
                yield '>'
                if environment.getattr(l_2_cell, 'best'):
                    pass
                    yield '<strong>'
                    yield escape(environment.getattr(l_2_cell, 'text'))
                    yield '</strong> <span class="mark" title="best in this column">▲<span class="visually-hidden"> best</span></span>'
                else:
                    pass
                    yield escape(environment.getattr(l_2_cell, 'text'))
                if environment.getattr(l_2_cell, 'note'):
                    pass
                    yield '<span class="interval">'
                    yield escape(environment.getattr(l_2_cell, 'note'))
                    yield '</span>'
                yield '</td>'
        l_2_loop = l_2_cell = missing
        yield '</tr>\n'
    l_1_loop = l_1_row = missing
    yield '  </tbody>\n</table>\n</div>\n'

blocks = {}
debug_info = '2=13&3=15&4=17&6=26&7=31'