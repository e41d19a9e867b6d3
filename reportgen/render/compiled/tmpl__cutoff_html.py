# Generated from templates/_cutoff.html.j2 by scripts/make_compiled_templates.py
KEY = 'e92df6d7409f1f5cb52b2f9ba8ba7ee32b363935f8ec6c02798551c0158506f1'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_cutoff.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_cutoffs = resolve('cutoffs')
    l_0_unanswerable = missing
    pass
    included_template = environment.get_template('_attribution.html.j2', '_cutoff.html.j2').make_module(context.get_all(), True, {'unanswerable': l_0_unanswerable})
    l_0_unanswerable = getattr(included_template, 'unanswerable', missing)
    if l_0_unanswerable is missing:
        l_0_unanswerable = undefined(f"the template {included_template.__name__!r} (imported on line 1 in '_cutoff.html.j2') does not export the requested name 'unanswerable'", name='unanswerable')
    context.vars['unanswerable'] = l_0_unanswerable
    context.exported_vars.discard('unanswerable')
    yield '<section id="cutoff">\n  <h2>When to say "I could not find this"</h2>\n  <p class="note">Each question\'s top-1 score: answerable questions should sit above the cutoff that triggers a decline, unanswerable ones below.</p>\n'
    for l_1_view in (undefined(name='cutoffs') if l_0_cutoffs is missing else l_0_cutoffs):
        l_1_cutoff_charts = resolve('cutoff_charts')
        _loop_vars = {}
        pass
        yield '  <h3>'
        yield escape(environment.getattr(l_1_view, 'run'))
        yield '</h3>\n'
        for l_2_line in environment.getattr(l_1_view, 'summary'):
            _loop_vars = {}
            pass
            yield '  <p>'
            yield escape(l_2_line)
            yield '</p>\n'
        l_2_line = missing
        if (environment.getattr(l_1_view, 'run') in (undefined(name='cutoff_charts') if l_1_cutoff_charts is missing else l_1_cutoff_charts)):
            pass
            yield '  <figure class="chart" aria-label="Top-1 scores of '
            yield escape(environment.getattr(l_1_view, 'run'))
            yield ', answerable and unanswerable, with the cutoff">'
            yield escape(environment.getitem((undefined(name='cutoff_charts') if l_1_cutoff_charts is missing else l_1_cutoff_charts), environment.getattr(l_1_view, 'run')))
            yield '</figure>\n'
        if environment.getattr(l_1_view, 'facts'):
            pass
            yield '  <dl class="facts">\n'
            for (l_2_label, l_2_value) in environment.getattr(l_1_view, 'facts'):
                _loop_vars = {}
                pass
                yield '    <div><dt>'
                yield escape(l_2_label)
                yield '</dt><dd>'
                yield escape(l_2_value)
                yield '</dd></div>\n'
            l_2_label = l_2_value = missing
            yield '  </dl>\n'
    l_1_view = l_1_cutoff_charts = missing
    yield '  '
    yield escape(context.call((undefined(name='unanswerable') if l_0_unanswerable is missing else l_0_unanswerable)))
    yield '\n</section>\n'

blocks = {}
debug_info = '1=13&5=20&6=25&7=27&8=31&10=34&11=37&13=41&15=44&16=48&21=56'