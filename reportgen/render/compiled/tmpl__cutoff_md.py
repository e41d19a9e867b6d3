# Generated from templates/_cutoff.md.j2 by scripts/make_compiled_templates.py
KEY = 'dbff028e1cdd554034ce5f20b9ae4c225ed2b0fbeccbc8b3d85790b298462d4b'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_cutoff.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_cutoff_title = resolve('cutoff_title')
    l_0_cutoffs_all = resolve('cutoffs_all')
    l_0_unanswerable = missing
    try:
        t_1 = environment.filters['md']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'md' found.")
    pass
    included_template = environment.get_template('_attribution.md.j2', '_cutoff.md.j2').make_module(context.get_all(), True, {'unanswerable': l_0_unanswerable})
    l_0_unanswerable = getattr(included_template, 'unanswerable', missing)
    if l_0_unanswerable is missing:
        l_0_unanswerable = undefined(f"the template {included_template.__name__!r} (imported on line 1 in '_cutoff.md.j2') does not export the requested name 'unanswerable'", name='unanswerable')
    context.vars['unanswerable'] = l_0_unanswerable
    context.exported_vars.discard('unanswerable')
    yield '## '
    yield str(t_1((undefined(name='cutoff_title') if l_0_cutoff_title is missing else l_0_cutoff_title)))
    yield "\n\nEach question's top-1 score: answerable questions should sit above the cutoff that triggers a decline, unanswerable ones below.\n"
    for l_1_view in (undefined(name='cutoffs_all') if l_0_cutoffs_all is missing else l_0_cutoffs_all):
        l_1_table = resolve('table')
        _loop_vars = {}
        pass
        yield '\n### '
        yield str(t_1(environment.getattr(l_1_view, 'run')))
        yield '\n\n'
        for l_2_line in environment.getattr(l_1_view, 'summary'):
            _loop_vars = {}
            pass
            yield str(t_1(l_2_line))
            yield '\n\n'
        l_2_line = missing
        if environment.getattr(l_1_view, 'histogram'):
            pass
            l_1_table = environment.getattr(l_1_view, 'histogram')
            _loop_vars['table'] = l_1_table
            template = environment.get_template('_table.md.j2', '_cutoff.md.j2')
            gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_1_table, 'view': l_1_view, 'unanswerable': l_0_unanswerable}))
            try:
                for event in gen:
                    yield event
            finally: gen.close()
    l_1_view = l_1_table = missing
    yield str(context.call((undefined(name='unanswerable') if l_0_unanswerable is missing else l_0_unanswerable)))
    yield '\n'

blocks = {}
debug_info = '1=20&2=27&5=29&7=34&9=36&10=39&13=42&14=44&15=46&18=53'