// A minimal Blade compiler for build-invoices-templates.mjs: the directives Laravel's BladeCompiler turns into PHP,
// limited to those the rendered designs use (echoes, @if/@elseif/@else/@endif, @foreach/@endforeach, @php/@endphp,
// @include, @lang), compiled the way Laravel compiles them; the PHP then runs under Debian's php-cli. Any other
// `@word` (e.g. CSS's @font-face, @page) is left as text, as Blade leaves unknown directives.

/** The directive's PHP, given its parenthesised argument text (without the outer parentheses). */
const DIRECTIVES = {
  if: (a) => `<?php if(${a}): ?>`,
  elseif: (a) => `<?php elseif(${a}): ?>`,
  else: () => '<?php else: ?>',
  endif: () => '<?php endif; ?>',
  foreach: (a) => `<?php foreach(${a}): ?>`,
  endforeach: () => '<?php endforeach; ?>',
  lang: (a) => `<?php echo __tpl_lang(${a}); ?>`,
};

/** Index just after the parenthesis matching the one at `open` (quotes respected). */
function matchParen(s, open) {
  let depth = 0,
    quote = null;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
  }
  throw new Error(`blade: unbalanced parentheses at ${open}`);
}

function compileStatements(s, include) {
  let out = '',
    i = 0;
  const re = /\B@(\w+)([ \t]*)/g;
  for (let m; (m = re.exec(s));) {
    const name = m[1];
    if (!(name in DIRECTIVES) && name !== 'include') continue;
    let end = m.index + m[0].length,
      arg = '';
    if (s[end] === '(') {
      const close = matchParen(s, end);
      arg = s.slice(end + 1, close - 1);
      end = close;
    } else end = m.index + 1 + name.length;
    out +=
      s.slice(i, m.index) +
      (name === 'include' ? compileBlade(include(JSON.parse(arg.trim().replace(/^'|'$/g, '"'))), include) : DIRECTIVES[name](arg));
    i = end;
    re.lastIndex = end;
  }
  return out + s.slice(i);
}

/** Blade source -> PHP source. `include(viewName)` returns the Blade source of an included view. */
export function compileBlade(source, include) {
  let s = source.replace(/\{\{--[\s\S]*?--\}\}/g, '');
  s = s.replace(/@php([\s\S]*?)@endphp/g, (_, code) => `<?php${code}?>`);
  s = s.replace(/\{!!\s*([\s\S]+?)\s*!!\}/g, (_, e) => `<?php echo ${e}; ?>`);
  s = s.replace(/\{\{\s*([\s\S]+?)\s*\}\}/g, (_, e) => `<?php echo e(${e}); ?>`);
  return compileStatements(s, include);
}
