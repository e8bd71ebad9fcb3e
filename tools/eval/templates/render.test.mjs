// Checks of the template runners of build-invoices-templates.mjs (no corpus data: invented strings only).
// Run: node --test tools/eval/templates/  (needs Debian's ruby and php-cli, as the builder does)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { printed, renderErb, renderPhp } from './render.mjs';
import { taxTotal } from './common.mjs';
import { compileBlade } from './blade.mjs';

const ERB_PRELUDE = `
class View
  def initialize(ctx) @doc = TplData.new(ctx) end
  def doc() @doc end
  def view_binding() binding end
end
def render_template(src, ctx) ERB.new(src).result(View.new(ctx).view_binding) end
`;

test('ERB: nested objects are wrapped, lists iterate, "key?" is false for false, nil and empty values', () => {
  const src =
    '<% doc.rows.each do |r| %>[<%= r.name %>]<% end %><% if doc.flag? %>FLAG<% end %><% if doc.empty? %>EMPTY<% end %><% if doc.on? %>ON<% end %>';
  const out = renderErb(src, { rows: [{ name: 'alpha' }, { name: 'beta' }], flag: false, empty: '', on: true }, ERB_PRELUDE);
  assert.equal(out.trim(), '[alpha][beta]ON');
});

test('Blade: echoes escape, raw echoes do not, @if/@elseif/@else/@foreach/@php/@lang/@include compile to running PHP', () => {
  const views = { 'parts.row': '<li>{{ $item->name }}</li>' };
  const src = [
    '@php $n = 0 @endphp',
    "<title>@lang('greeting') {{ $title }}</title>{!! $html !!}",
    "@foreach ($items as $item) @include('parts.row') @php $n += 1 @endphp @endforeach",
    '@if ($n > 5) many @elseif ($n === 2) two @else other @endif',
    '<style>@page { margin: 0 }</style>{{-- a comment --}}',
  ].join('\n');
  const php = compileBlade(src, (name) => views[name]);
  const script = `function e($v) { return htmlspecialchars((string) $v, ENT_QUOTES); }
function __tpl_lang($k) { return strtoupper($k); }
extract((array) $ctx);
include __DIR__ . '/view.php';`;
  const out = renderPhp(script, { title: 'a<b', html: '<b>x</b>', items: [{ name: 'one' }, { name: 'two' }] }, { 'view.php': php });
  assert.match(out, /<title>GREETING a&lt;b<\/title><b>x<\/b>/);
  assert.match(out, /<li>one<\/li>\s*<li>two<\/li>/);
  assert.match(out, /\btwo\b(?!<)/);
  assert.doesNotMatch(out, /many|other|comment/);
  assert.match(out, /@page \{ margin: 0 \}/);
});

test('a multi-rate tax total is printed as its per-rate lines or as the one figure', () => {
  const fmt = (n) => `${n.toFixed(2)} EUR`;
  const label = taxTotal(30, [10, 20], fmt);
  const page = (t) => ({ layout: t, raw: t });
  assert.equal(printed(page('VAT 10% 10.00 EUR VAT 20% 20.00 EUR'), label.surface), true);
  assert.equal(printed(page('Tax 30.00 EUR'), label.surface), true);
  assert.equal(printed(page('VAT 10% 10.00 EUR'), label.surface), false);
});
