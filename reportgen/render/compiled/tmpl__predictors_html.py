# Generated from templates/_predictors.html.j2 by scripts/make_compiled_templates.py
KEY = '5f929e2dfa44a5a5199826a4b899db82ec5d420c642b2eee7fbbc509808b3508'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_predictors.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_predictors = resolve('predictors')
    l_0_view = resolve('view')
    l_0_table = resolve('table')
    pass
    if (undefined(name='predictors') if l_0_predictors is missing else l_0_predictors):
        pass
        l_0_view = (undefined(name='predictors') if l_0_predictors is missing else l_0_predictors)
        context.vars['view'] = l_0_view
        context.exported_vars.add('view')
        yield '<section id="predictors" aria-labelledby="predictors-title">\n  <h2 id="predictors-title">What predicts the answers ('
        yield escape(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'run'))
        yield ')</h2>\n'
        for l_1_caution in environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'cautions'):
            _loop_vars = {}
            pass
            yield '  <p class="warnings"><span aria-hidden="true">⚠</span> '
            yield escape(l_1_caution)
            yield '</p>\n'
        l_1_caution = missing
        yield '  <h3>What each fix is worth</h3>\n'
        if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'headroom_line'):
            pass
            yield '<p class="conclusion">'
            yield escape(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'headroom_line'))
            yield '</p>'
        l_0_table = environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'headroom')
        context.vars['table'] = l_0_table
        context.exported_vars.add('table')
        template = environment.get_template('_table.html.j2', '_predictors.html.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_0_table, 'view': l_0_view}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
        yield '  <h3>Does the model use the gold it gets?</h3>\n  <p class="note">'
        yield escape(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'basis'))
        yield '</p>\n  <p class="conclusion">'
        yield escape(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'trend'))
        yield '</p>\n'
        if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'svg'):
            pass
            yield '  <figure id="chart-'
            yield escape(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'chart_stem'))
            yield '">\n    '
            yield escape(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'svg'))
            yield '\n    <figcaption>'
            yield escape(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'caption'))
            yield '</figcaption>\n  </figure>\n'
        l_0_table = environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'ranks')
        context.vars['table'] = l_0_table
        context.exported_vars.add('table')
        template = environment.get_template('_table.html.j2', '_predictors.html.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_0_table, 'view': l_0_view}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
        if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'kinds'):
            pass
            yield '  <details class="folded-tables"><summary>By kind</summary>\n  <div class="tables">\n'
            for l_1_part in environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'kinds'):
                l_1_table = l_0_table
                _loop_vars = {}
                pass
                l_1_table = environment.getattr(l_1_part, 'table')
                _loop_vars['table'] = l_1_table
                template = environment.get_template('_table.html.j2', '_predictors.html.j2')
                gen = template.root_render_func(template.new_context(context.get_all(), True, {'part': l_1_part, 'table': l_1_table, 'view': l_0_view}))
                try:
                    for event in gen:
                        yield event
                finally: gen.close()
                if environment.getattr(l_1_part, 'sentence'):
                    pass
                    yield '<p class="conclusion">'
                    yield escape(environment.getattr(l_1_part, 'sentence'))
                    yield '</p>'
            l_1_part = l_1_table = missing
            yield '  </div>\n  </details>\n'
        yield '  <h3>Which retrieval number tracks the verdict?</h3>\n'
        for l_1_line in environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'association_lines'):
            _loop_vars = {}
            pass
            yield '  <p class="conclusion">'
            yield escape(l_1_line)
            yield '</p>\n'
        l_1_line = missing
        l_0_table = environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'association')
        context.vars['table'] = l_0_table
        context.exported_vars.add('table')
        template = environment.get_template('_table.html.j2', '_predictors.html.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'table': l_0_table, 'view': l_0_view}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
        yield '</section>\n'

blocks = {}
debug_info = '2=14&3=16&5=20&6=22&7=26&10=30&11=35&12=38&14=45&15=47&16=49&17=52&18=54&19=56&22=58&23=61&24=67&27=70&28=74&29=76&30=82&36=90&37=94&39=97&40=100'