# Generated from templates/_hygiene.md.j2 by scripts/make_compiled_templates.py
KEY = '87597bbe9dbbb0517ebfab6dded15ff17904397da9b4c8224af61f3246c130fb'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_hygiene.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_hygiene = resolve('hygiene')
    try:
        t_1 = environment.filters['md']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'md' found.")
    pass
    if (undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene):
        pass
        yield '\n**Index versions:** '
        yield str(t_1(environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'provenance')))
        yield '\n\n**'
        yield str(t_1(environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'stale_title')))
        yield '.** '
        yield str(t_1(environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'stale_note')))
        yield '\n'
        if environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'stale_rows'):
            pass
            if environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'stale_collapsed'):
                pass
                yield '\n<details><summary>'
                yield str(environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'stale_rows_summary'))
                yield '</summary>\n'
            yield '\n| question | gold ids not found |\n| --- | --- |\n'
            for (l_1_qid, l_1_ids) in environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'stale_rows'):
                _loop_vars = {}
                pass
                yield '| '
                yield str(t_1(l_1_qid))
                yield ' | '
                yield str(t_1(l_1_ids))
                yield ' |\n'
            l_1_qid = l_1_ids = missing
            if environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'stale_rows_note'):
                pass
                yield '\n'
                yield str(t_1(environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'stale_rows_note')))
                yield '\n'
            if environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'stale_collapsed'):
                pass
                yield '\n</details>\n'
        if environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'without_stale'):
            pass
            yield '\n'
            for l_1_line in environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'without_stale'):
                _loop_vars = {}
                pass
                yield '- '
                yield str(t_1(l_1_line))
                yield '\n'
            l_1_line = missing
        if environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'leaks'):
            pass
            yield '\n**Forbidden chunks shown to the model**\n\n'
            for l_1_line in environment.getattr((undefined(name='hygiene') if l_0_hygiene is missing else l_0_hygiene), 'leaks'):
                _loop_vars = {}
                pass
                yield '- '
                yield str(t_1(l_1_line))
                yield '\n'
            l_1_line = missing

blocks = {}
debug_info = '1=18&3=21&5=23&6=27&7=29&9=32&14=35&15=39&17=44&19=47&21=49&26=52&28=55&29=59&32=62&36=65&37=69'