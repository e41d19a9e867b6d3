# Generated from templates/_cutoff.html.j2 by scripts/make_compiled_templates.py
KEY = 'c373d98b9c3fb2a7a78254c9f3c499458134816d31e8a08800f1ac52bf615427'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_cutoff.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_cutoff_title = resolve('cutoff_title')
    l_0_cutoffs = resolve('cutoffs')
    l_0_cutoffs_folded = resolve('cutoffs_folded')
    l_0_unanswerable = l_0_cutoff_run = missing
    try:
        t_1 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_2 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    pass
    included_template = environment.get_template('_attribution.html.j2', '_cutoff.html.j2').make_module(context.get_all(), True, {'cutoff_run': l_0_cutoff_run, 'unanswerable': l_0_unanswerable})
    l_0_unanswerable = getattr(included_template, 'unanswerable', missing)
    if l_0_unanswerable is missing:
        l_0_unanswerable = undefined(f"the template {included_template.__name__!r} (imported on line 1 in '_cutoff.html.j2') does not export the requested name 'unanswerable'", name='unanswerable')
    context.vars['unanswerable'] = l_0_unanswerable
    context.exported_vars.discard('unanswerable')
    yield '<section id="cutoff" aria-labelledby="cutoff-title">\n  <h2 id="cutoff-title">'
    yield escape((undefined(name='cutoff_title') if l_0_cutoff_title is missing else l_0_cutoff_title))
    yield '</h2>\n  <p class="note">Each question\'s top-1 score: answerable questions should sit above the cutoff that triggers a decline, unanswerable ones below.</p>\n'
    def macro(l_1_view):
        t_3 = []
        l_1_cutoff_charts = resolve('cutoff_charts')
        if l_1_view is missing:
            l_1_view = undefined("parameter 'view' was not provided", name='view')
        pass
        t_3.extend((
            '  <h3>',
            escape(environment.getattr(l_1_view, 'run')),
            '</h3>\n',
        ))
        for l_2_line in environment.getattr(l_1_view, 'summary'):
            _loop_vars = {}
            pass
            t_3.extend((
                '  <p>',
                escape(l_2_line),
                '</p>\n',
            ))
        l_2_line = missing
        if (environment.getattr(l_1_view, 'run') in (undefined(name='cutoff_charts') if l_1_cutoff_charts is missing else l_1_cutoff_charts)):
            pass
            t_3.extend((
                '  <figure class="chart" aria-label="Top-1 scores of ',
                escape(environment.getattr(l_1_view, 'run')),
                ', answerable and unanswerable, with the cutoff">',
                escape(environment.getitem((undefined(name='cutoff_charts') if l_1_cutoff_charts is missing else l_1_cutoff_charts), environment.getattr(l_1_view, 'run'))),
                '</figure>\n',
            ))
        if environment.getattr(l_1_view, 'facts'):
            pass
            t_3.append(
                '  <dl class="facts">\n',
            )
            for (l_2_label, l_2_value) in environment.getattr(l_1_view, 'facts'):
                _loop_vars = {}
                pass
                t_3.extend((
                    '    <div><dt>',
                    escape(l_2_label),
                    '</dt><dd>',
                    escape(l_2_value),
                    '</dd></div>\n',
                ))
            l_2_label = l_2_value = missing
            t_3.append(
                '  </dl>\n',
            )
        return concat(t_3)
    context.exported_vars.add('cutoff_run')
    context.vars['cutoff_run'] = l_0_cutoff_run = Macro(environment, macro, 'cutoff_run', ('view',), False, False, False, context.eval_ctx.autoescape)
    for l_1_view in (undefined(name='cutoffs') if l_0_cutoffs is missing else l_0_cutoffs):
        _loop_vars = {}
        pass
        yield escape(context.call((undefined(name='cutoff_run') if l_0_cutoff_run is missing else l_0_cutoff_run), l_1_view, _loop_vars=_loop_vars))
    l_1_view = missing
    if (undefined(name='cutoffs_folded') if l_0_cutoffs_folded is missing else l_0_cutoffs_folded):
        pass
        yield '  <details class="folded-tables"><summary>The other runs: '
        yield escape(t_1(context.eval_ctx, t_2(context, (undefined(name='cutoffs_folded') if l_0_cutoffs_folded is missing else l_0_cutoffs_folded), attribute='run'), ', '))
        yield '</summary>\n'
        for l_1_view in (undefined(name='cutoffs_folded') if l_0_cutoffs_folded is missing else l_0_cutoffs_folded):
            _loop_vars = {}
            pass
            yield escape(context.call((undefined(name='cutoff_run') if l_0_cutoff_run is missing else l_0_cutoff_run), l_1_view, _loop_vars=_loop_vars))
        l_1_view = missing
        yield '  </details>\n'
    yield '  '
    yield escape(context.call((undefined(name='unanswerable') if l_0_unanswerable is missing else l_0_unanswerable)))
    yield '\n</section>\n'

blocks = {}
debug_info = '1=27&3=34&5=36&6=44&7=47&8=52&10=56&11=60&13=65&15=70&16=75&21=87&22=92&23=95&24=97&27=104'