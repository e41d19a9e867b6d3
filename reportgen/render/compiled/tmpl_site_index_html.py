# Generated from templates/site_index.html.j2 by scripts/make_compiled_templates.py
KEY = '4601586c4952ac07eeb8e47e6487721923685137838aa2589d7476a34f1a4424'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'site_index.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_assets = resolve('assets')
    l_0_title = resolve('title')
    l_0_versions = resolve('versions')
    l_0_figures = resolve('figures')
    l_0_gold_changes = resolve('gold_changes')
    try:
        t_1 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    pass
    yield '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta http-equiv="Content-Security-Policy" content="'
    yield escape(environment.getattr((undefined(name='assets') if l_0_assets is missing else l_0_assets), 'csp'))
    yield '">\n<title>'
    yield escape((undefined(name='title') if l_0_title is missing else l_0_title))
    yield '</title>\n<style>\n'
    yield escape(environment.getattr((undefined(name='assets') if l_0_assets is missing else l_0_assets), 'css'))
    yield '\n</style>\n</head>\n<body>\n<header>\n  <p class="tool">reportgen</p>\n  <h1>'
    yield escape((undefined(name='title') if l_0_title is missing else l_0_title))
    yield '</h1>\n  <p class="note">Every published version of the retrieval report, newest first, and how the headline measures and the four cells moved. Numbers measured on different gold sets (see the fingerprint) are not comparable.</p>\n</header>\n<main>\n<section id="versions" aria-labelledby="versions-title">\n  <h2 id="versions-title">Versions ('
    yield escape(t_1((undefined(name='versions') if l_0_versions is missing else l_0_versions)))
    yield ')</h2>\n'
    if (undefined(name='versions') if l_0_versions is missing else l_0_versions):
        pass
        yield '  <div class="scroll">\n  <table class="versions sortable">\n    <caption>Published reports, newest first</caption>\n    <thead><tr><th scope="col">version</th><th scope="col">headline per run, at k_ctx</th><th scope="col">gold set (fingerprint)</th><th scope="col">commit</th><th scope="col">gate</th><th scope="col">created</th><th scope="col">files</th></tr></thead>\n    <tbody>\n'
        l_1_loop = missing
        for l_1_row, l_1_loop in LoopContext((undefined(name='versions') if l_0_versions is missing else l_0_versions), undefined):
            _loop_vars = {}
            pass
            yield '      <tr>\n        <th scope="row">'
            if environment.getattr(l_1_row, 'links'):
                pass
                yield '<a href="'
                yield escape(environment.getitem(environment.getitem(environment.getattr(l_1_row, 'links'), 0), 1))
                yield '">'
                yield escape(environment.getattr(l_1_row, 'version'))
                yield '</a>'
            else:
                pass
                yield escape(environment.getattr(l_1_row, 'version'))
            yield '</th>\n        <td class="headlines" data-label="headline per run, at k_ctx"><ul class="plain">'
            for l_2_line in environment.getattr(l_1_row, 'headline'):
                _loop_vars = {}
                pass
                yield '<li>'
                yield escape(l_2_line)
                yield '</li>'
            l_2_line = missing
            yield '</ul></td>\n        <td class="meta" data-label="gold set">'
            yield escape(environment.getattr(l_1_row, 'gold'))
            yield '</td>\n        <td class="meta" data-label="commit"><code>'
            yield escape(environment.getattr(l_1_row, 'commit'))
            yield '</code></td>\n        <td data-label="gate" class="meta '
            yield escape(environment.getattr(l_1_row, 'gate_class'))
            yield '"'
            if environment.getattr(l_1_row, 'gate_rules'):
                pass
                yield ' title="'
                yield escape(environment.getattr(l_1_row, 'gate_rules'))
                yield '"'
            yield '>'
            yield escape(environment.getattr(l_1_row, 'gate'))
            yield '</td>\n        <td class="meta" data-label="created">'
            yield escape(environment.getattr(l_1_row, 'created'))
            yield '</td>\n        <td class="meta" data-label="files">'
            yield escape(environment.getattr(l_1_row, 'pruned_note'))
            l_2_loop = missing
            for (l_2_label, l_2_href), l_2_loop in LoopContext(environment.getattr(l_1_row, 'links'), undefined):
                _loop_vars = {}
                pass
                yield '<a href="'
                yield escape(l_2_href)
                yield '">'
                yield escape(l_2_label)
                yield '</a>'
                if (not environment.getattr(l_2_loop, 'last')):
                    pass
                    yield ' · '
            l_2_loop = l_2_label = l_2_href = missing
            yield '</td>\n      </tr>\n'
        l_1_loop = l_1_row = missing
        yield '    </tbody>\n  </table>\n  </div>\n'
    else:
        pass
        yield '  <p>Nothing published yet.</p>\n'
    yield '</section>\n\n'
    if (undefined(name='figures') if l_0_figures is missing else l_0_figures):
        pass
        yield '<section id="trends" aria-labelledby="trends-title">\n  <h2 id="trends-title">Trends across versions</h2>\n  <p class="note">Oldest on the left, ordered by commit ancestry (by creation time for versions without a commit). k_ctx is the number of chunks sent to the model.</p>\n'
        for l_1_note in (undefined(name='gold_changes') if l_0_gold_changes is missing else l_0_gold_changes):
            _loop_vars = {}
            pass
            yield '  <p class="note gold-change">'
            yield escape(l_1_note)
            yield '</p>\n'
        l_1_note = missing
        yield '  <div class="figures">\n'
        for l_1_figure in (undefined(name='figures') if l_0_figures is missing else l_0_figures):
            _loop_vars = {}
            pass
            yield '  <figure id="chart-'
            yield escape(environment.getattr(l_1_figure, 'stem'))
            yield '">'
            yield escape(environment.getattr(l_1_figure, 'svg'))
            yield '</figure>\n'
        l_1_figure = missing
        yield '  </div>\n</section>\n'
    yield '</main>\n<footer><p>Made by reportgen. This page is self-contained: it loads nothing from anywhere. The history behind it is <a href="history.jsonl">history.jsonl</a>.</p></footer>\n<script>'
    yield escape(environment.getattr((undefined(name='assets') if l_0_assets is missing else l_0_assets), 'script'))
    yield '</script>\n</body>\n</html>\n'

blocks = {}
debug_info = '6=23&7=25&9=27&15=29&20=31&21=33&27=37&29=41&30=52&31=60&32=62&33=64&34=74&35=76&46=97&50=100&51=104&54=108&55=112&62=119'