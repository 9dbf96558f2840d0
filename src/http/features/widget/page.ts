/** The picker's demo page and the page that shows what a form submitted: plain functions from data to HTML, en and km. */
import { html, type Html, trusted } from '../../../dashboard/html.js';

export type Lang = 'en' | 'km';

const TEXT = {
  en: {
    title: 'Address picker demo',
    intro: 'The <kh-address-picker> web component in a real checkout form: choose a province, district, commune and village (or search), and the form submits their codes and the postal code. No glue code.',
    cascade: 'Cascade: one list per level',
    search: 'Search: type any place or postal code',
    name: 'Full name',
    phone: 'Phone',
    submit: 'Place order',
    reset: 'Reset',
    event: 'Last kh-change event',
    snippet: 'Copy this into your page (with your own browser key, made in the dashboard for your site\'s origin):',
    noKey: 'The demo key is off on this server (DEMO_KEY=off). Create a browser key for this page\'s origin in the dashboard and put it in api-key.',
    keyNote: 'This page uses a demo browser key limited to this service\'s own origins; from any other origin it is refused.',
    submitted: 'What the form submitted',
    nothing: 'Nothing was submitted.',
    back: 'Back to the demo',
    other: 'ភាសាខ្មែរ',
  },
  km: {
    title: 'ការបង្ហាញឧបករណ៍ជ្រើសរើសអាសយដ្ឋាន',
    intro: 'ធាតុវេប <kh-address-picker> ក្នុងទម្រង់បង់ប្រាក់ពិតៗ៖ ជ្រើសរើសខេត្ត ស្រុក ឃុំ និងភូមិ (ឬស្វែងរក) ហើយទម្រង់នឹងបញ្ជូនលេខកូដរបស់វា និងលេខកូដប្រៃសណីយ៍ ដោយមិនចាំបាច់សរសេរកូដបន្ថែម។',
    cascade: 'ជាជំហាន៖ បញ្ជីមួយសម្រាប់កម្រិតនីមួយៗ',
    search: 'ស្វែងរក៖ វាយឈ្មោះទីកន្លែង ឬលេខកូដប្រៃសណីយ៍',
    name: 'ឈ្មោះពេញ',
    phone: 'ទូរស័ព្ទ',
    submit: 'បញ្ជាទិញ',
    reset: 'កំណត់ឡើងវិញ',
    event: 'ព្រឹត្តិការណ៍ kh-change ចុងក្រោយ',
    snippet: 'ចម្លងកូដនេះទៅក្នុងទំព័ររបស់អ្នក (ជាមួយសោកម្មវិធីរុករករបស់អ្នក ដែលបង្កើតក្នុងផ្ទាំងគ្រប់គ្រង សម្រាប់ប្រភពគេហទំព័ររបស់អ្នក)៖',
    noKey: 'សោសាកល្បងត្រូវបានបិទនៅលើម៉ាស៊ីនមេនេះ (DEMO_KEY=off)។ សូមបង្កើតសោកម្មវិធីរុករកសម្រាប់ប្រភពទំព័រនេះក្នុងផ្ទាំងគ្រប់គ្រង ហើយដាក់វាក្នុង api-key។',
    keyNote: 'ទំព័រនេះប្រើសោកម្មវិធីរុករកសាកល្បង ដែលកំណត់ត្រឹមប្រភពរបស់សេវានេះប៉ុណ្ណោះ៖ ពីប្រភពផ្សេង វានឹងត្រូវបានបដិសេធ។',
    submitted: 'អ្វីដែលទម្រង់បានបញ្ជូន',
    nothing: 'គ្មានអ្វីត្រូវបានបញ្ជូនទេ។',
    back: 'ត្រឡប់ទៅការបង្ហាញ',
    other: 'English',
  },
} as const;

const STYLE = trusted(`
* { box-sizing: border-box; }
body { margin: 0; color: #1d2433; background: #f6f7f9; line-height: 1.55;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans Khmer", "Khmer OS", "Khmer OS System", Hanuman, sans-serif; }
:lang(km) { line-height: 1.9; }
main { max-width: 48rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 1.5rem; }
form { background: #fff; border: 1px solid #d8dce5; border-radius: .5rem; padding: 1rem; margin: 1rem 0; display: grid; gap: .75rem; }
label { font-weight: 600; display: block; }
input { width: 100%; padding: .55rem; font: inherit; border: 1px solid #6b7385; border-radius: .35rem; }
button { padding: .55rem 1rem; font: inherit; border-radius: .35rem; border: 1px solid #0b5cad; background: #0b5cad; color: #fff; cursor: pointer; margin-right: .5rem; }
button[type=reset] { background: #fff; color: #0b5cad; }
:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
pre { background: #101826; color: #e6edf6; padding: .75rem; border-radius: .35rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; font-size: .85rem; }
.muted { color: #4d5566; }
a { color: #0b5cad; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; background: #fff; padding: 1rem; border-radius: .5rem; border: 1px solid #d8dce5; }
dt { font-weight: 600; } dd { margin: 0; font-family: ui-monospace, monospace; word-break: break-all; }
kh-address-picker { --kh-accent: #0b5cad; }
`);

export interface DemoPage {
  lang: Lang;
  nonce: string;
  /** The versioned, immutable URL of the script. */
  scriptPath: string;
  /** This service's origin as the page was asked for, for the snippet. */
  origin: string;
  demoKey: string | undefined;
}

function layout(lang: Lang, nonce: string, title: string, path: string, body: Html): string {
  const t = TEXT[lang];
  return `<!doctype html>${html`<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · kh-address</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main>
<p><a href="/">kh-address</a> · <a href="${path}?lang=${lang === 'km' ? 'en' : 'km'}" lang="${lang === 'km' ? 'en' : 'km'}">${t.other}</a></p>
${body}
</main>
</body>
</html>`}`;
}

export function demoPage({ lang, nonce, scriptPath, origin, demoKey }: DemoPage): string {
  const t = TEXT[lang];
  const key = demoKey ?? '';
  const snippet = `<script type="module" src="${origin}/widget/kh-address-picker.js"></script>

<form method="post" action="/checkout">
  <kh-address-picker api-key="khp_YOUR_BROWSER_KEY" lang="${lang}" required></kh-address-picker>
  <button>Order</button>
</form>
<!-- submits province_code, district_code, commune_code, village_code and postal_code -->`;
  const body = html`
<h1>${t.title}</h1>
<p>${t.intro}</p>
<p class="muted">${demoKey ? t.keyNote : t.noKey}</p>
<h2 id="cascade-title">${t.cascade}</h2>
<form id="cascade-form" method="get" action="/widget/demo/submitted" aria-labelledby="cascade-title">
  <input type="hidden" name="lang" value="${lang}">
  <div><label for="full-name">${t.name}</label><input id="full-name" name="full_name" autocomplete="name" maxlength="100"></div>
  <div><label for="phone">${t.phone}</label><input id="phone" name="phone" type="tel" autocomplete="tel" maxlength="30"></div>
  <kh-address-picker id="cascade-picker" api-key="${key}" lang="${lang}" required></kh-address-picker>
  <div><button type="submit">${t.submit}</button><button type="reset">${t.reset}</button></div>
</form>
<h2 id="search-title">${t.search}</h2>
<form id="search-form" method="get" action="/widget/demo/submitted" aria-labelledby="search-title">
  <input type="hidden" name="lang" value="${lang}">
  <kh-address-picker id="search-picker" mode="search" levels="province district commune" api-key="${key}" lang="${lang}" required
    name-village="village" name-commune="commune" name-district="district" name-province="province" name-postal-code="postcode"></kh-address-picker>
  <div><button type="submit">${t.submit}</button><button type="reset">${t.reset}</button></div>
</form>
<h2>${t.event}</h2>
<pre id="last-event" aria-live="polite">–</pre>
<h2>${t.snippet}</h2>
<pre id="snippet">${snippet}</pre>
<script type="module" nonce="${nonce}" src="${scriptPath}"></script>
<script type="module" nonce="${nonce}">
for (const picker of document.querySelectorAll('kh-address-picker')) {
  picker.addEventListener('kh-change', (event) => {
    document.getElementById('last-event').textContent = JSON.stringify(event.detail, null, 2);
  });
}
</script>`;
  return layout(lang, nonce, t.title, '/widget/demo', body);
}

export function submittedPage(lang: Lang, nonce: string, fields: [string, string][]): string {
  const t = TEXT[lang];
  const body = html`
<h1>${t.submitted}</h1>
${fields.length === 0 ? html`<p>${t.nothing}</p>` : html`<dl id="submitted">${fields.map(([name, value]) => html`<dt>${name}</dt><dd>${value}</dd>`)}</dl>`}
<p><a href="/widget/demo?lang=${lang}">${t.back}</a></p>`;
  return layout(lang, nonce, t.submitted, '/widget/demo/submitted', body);
}
