// Rendering for build-invoices-templates.mjs: each template language through its own engine (Twig via the npm
// `twig` port, Mustache via `mustache`, ERB via Debian's ruby), HTML to PDF with headless Chromium, and the page
// text back with poppler's pdftotext for the visibility check of every label.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import Twig from 'twig';
import Mustache from 'mustache';

Twig.cache(false);

/**
 * Renders a Twig template with the program's helpers: `filters`/`functions` are maps name -> fn, the program's
 * own Twig extensions reduced to what produces data (they are registered globally, so each render sets its own).
 */
export function renderTwig(source, context, { filters = {}, functions = {} } = {}) {
  for (const [name, fn] of Object.entries(filters))
    Twig.extendFilter(name, (value, args) => fn(value, ...(Array.isArray(args) ? args : args === undefined ? [] : [args])));
  for (const [name, fn] of Object.entries(functions)) Twig.extendFunction(name, fn);
  return Twig.twig({ data: source, rethrow: true }).render(context);
}

export function renderMustache(source, context) {
  return Mustache.render(source, context);
}

/** ERB through Debian's ruby: the context is JSON, turned into OpenStruct-like objects; `prelude` adds helpers. */
export function renderErb(source, context, prelude) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tpl-erb-'));
  try {
    fs.writeFileSync(path.join(dir, 'ctx.json'), JSON.stringify(context));
    fs.writeFileSync(path.join(dir, 'tpl.erb'), source);
    fs.writeFileSync(
      path.join(dir, 'run.rb'),
      `${ERB_RUNNER}\n${prelude}\nputs render_template(File.read(ARGV[1]), JSON.parse(File.read(ARGV[0])))\n`,
    );
    return execFileSync('ruby', [path.join(dir, 'run.rb'), path.join(dir, 'ctx.json'), path.join(dir, 'tpl.erb')], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
const ERB_RUNNER = `
require 'erb'
require 'json'
# A data object: each JSON key is a method, "key?" tells presence (as ActiveRecord attributes do).
class TplData < BasicObject
  def initialize(h) @h = h end
  def method_missing(m, *a)
    k = m.to_s
    return ![nil, false, '', []].include?(@h[k.chomp('?')]) if k.end_with?('?')
    wrap(@h.fetch(k) { ::Kernel.raise ::NoMethodError, "no #{k}" })
  end
  def respond_to_missing?(*) true end
  def to_s() @h.fetch('to_s', '').to_s end
  def wrap(v) v.is_a?(::Hash) ? ::TplData.new(v) : v.is_a?(::Array) ? v.map { |x| wrap(x) } : v end
end
`;

/**
 * A PHP program through Debian's php-cli (php-twig for Twig designs): `script` is the program body after `<?php`; it
 * finds the context as `$ctx` (decoded JSON: objects as stdClass, lists as arrays) and `files` (name -> text) in its
 * working directory. PHP notices go to stderr, never into the page.
 */
export function renderPhp(script, context, files = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tpl-php-'));
  try {
    fs.writeFileSync(path.join(dir, 'ctx.json'), JSON.stringify(context));
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    fs.writeFileSync(
      path.join(dir, 'run.php'),
      `<?php\ndate_default_timezone_set('UTC');\n$ctx = json_decode(file_get_contents(__DIR__ . '/ctx.json'));\n${script}\n`,
    );
    return execFileSync('php', ['-d', 'display_errors=stderr', '-d', 'error_reporting=E_ALL', 'run.php'], {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * PHP prelude for Twig designs rendered by Debian's php-twig: `TplData` wraps JSON objects so that Twig reads their
 * keys as attributes and prints an object through its `to_s` key (as the program's entities' __toString do).
 */
export const PHP_TWIG = `
require_once '/usr/share/php/Twig/autoload.php';
class TplData implements IteratorAggregate, Countable {
  private array $h;
  public function __construct(array $h) { $this->h = $h; }
  public static function wrap($v) {
    if ($v instanceof stdClass) return new TplData(array_map([TplData::class, 'wrap'], get_object_vars($v)));
    return is_array($v) ? array_map([TplData::class, 'wrap'], $v) : $v;
  }
  public function __isset($k) { return array_key_exists($k, $this->h); }
  public function __get($k) { return $this->h[$k] ?? null; }
  public function __toString(): string { return (string) ($this->h['to_s'] ?? ''); }
  public function getIterator(): Iterator { return new ArrayIterator($this->h); }
  public function count(): int { return count($this->h); }
}
function tpl_twig(string $template, array $vars, array $filters, array $functions): string {
  $twig = new \\Twig\\Environment(new \\Twig\\Loader\\ArrayLoader(['page' => $template]), ['autoescape' => 'html', 'strict_variables' => false]);
  foreach ($filters as $name => $fn) $twig->addFilter(new \\Twig\\TwigFilter($name, $fn, ['is_safe' => ['html']]));
  foreach ($functions as $name => $fn) $twig->addFunction(new \\Twig\\TwigFunction($name, $fn, ['is_safe' => ['html']]));
  return $twig->render('page', array_map([TplData::class, 'wrap'], $vars));
}
`;

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--no-pdf-header-footer',
  '--host-resolver-rules=MAP * ~NOTFOUND', // no network: remote images fail
  '--run-all-compositor-stages-before-draw',
];

/**
 * The programs that print an HTML invoice to PDF. Chromium prints the development sets; the others print the same
 * designs for a probe (`--printer`): the invoicing programs themselves print through dompdf (PHP) or wkhtmltopdf (Qt
 * WebKit), whose text layers differ from Chromium's (fonts, word spacing, how runs are cut).
 *   apt-get install wkhtmltopdf php-dompdf
 */
const PRINTERS = {
  chromium: (input, output, dir) =>
    execFileSync(
      'chromium',
      [...CHROMIUM_FLAGS, `--user-data-dir=${path.join(dir, 'profile')}`, `--print-to-pdf=${output}`, `file://${input}`],
      {
        stdio: ['ignore', 'ignore', 'ignore'],
        timeout: 120000,
      },
    ),
  // (wkhtmltopdf exits 1 when a resource fails to load — a remote logo with the network off — yet writes the PDF.)
  wkhtmltopdf: (input, output) => {
    const flags = ['-q', '--load-error-handling', 'ignore', '--load-media-error-handling', 'ignore', '-s', 'A4'];
    try {
      execFileSync('wkhtmltopdf', [...flags, input, output], {
        stdio: ['ignore', 'ignore', 'ignore'],
        timeout: 120000,
        env: { ...process.env, QT_QPA_PLATFORM: 'offscreen' },
      });
    } catch (e) {
      if (!fs.existsSync(output) || fs.statSync(output).size === 0) throw e;
    }
  },
  dompdf: (input, output) =>
    execFileSync('php', ['-r', DOMPDF_SCRIPT, input, output], { stdio: ['ignore', 'ignore', 'ignore'], timeout: 120000 }),
};
/** dompdf as Debian packages it, remote resources off, A4. */
const DOMPDF_SCRIPT = `require '/usr/share/php/dompdf/autoload.php';
$d = new Dompdf\\Dompdf(['isRemoteEnabled' => false, 'chroot' => dirname($argv[1])]);
$d->loadHtml(file_get_contents($argv[1])); $d->setPaper('A4'); $d->render();
file_put_contents($argv[2], $d->output());`;
export const PRINTER_NAMES = Object.keys(PRINTERS);

/** Prints an HTML string to PDF (Debian's chromium unless `printer` names another); returns the PDF bytes. */
export function printPdf(html, printer = 'chromium') {
  const print = PRINTERS[printer];
  if (!print) throw new Error(`unknown printer ${printer} (one of ${PRINTER_NAMES.join(', ')})`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tpl-print-'));
  try {
    const input = path.join(dir, 'invoice.html');
    const output = path.join(dir, 'invoice.pdf');
    fs.writeFileSync(input, html);
    print(input, output, dir);
    return fs.readFileSync(output);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Page text of a PDF in both pdftotext modes (layout, reading order), for the visibility check. */
export function pageTexts(pdf) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tpl-text-'));
  try {
    const file = path.join(dir, 'd.pdf');
    fs.writeFileSync(file, pdf);
    const run = (mode) => execFileSync('pdftotext', [...mode, file, '-'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))?.[1] ?? 0);
    return { layout: run(['-layout']), raw: run([]), pages };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** score.mjs's string normalisation, with all whitespace removed: NFKC, case-folded (ß = ss). */
export const squash = (s) =>
  String(s ?? '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/\s+/g, '');

/**
 * True when the printed form of a value appears in the page text (either pdftotext mode), whitespace ignored.
 * A multi-line cell (an array of lines) is printed when each of its lines is; `{ anyOf }` when one of its surfaces is.
 */
export function printed(texts, surface) {
  if (surface?.anyOf) return surface.anyOf.some((s) => printed(texts, s));
  if (Array.isArray(surface)) return surface.length > 0 && surface.every((line) => printed(texts, line));
  const needle = squash(surface);
  if (!needle) return false;
  return squash(texts.layout).includes(needle) || squash(texts.raw).includes(needle);
}
