/**
 * <kh-address-picker>: a Cambodian address (province, district, commune, village and postal code) in any form, over
 * the kh-address API. No framework, no dependencies. MIT.
 *
 *   <script type="module" src="https://API/widget/kh-address-picker.js"></script>
 *   <form><kh-address-picker api-key="khp_..." lang="km" required></kh-address-picker></form>
 *
 * Attributes: api-base (default: where this script came from), api-key (a browser key, khp_...), lang (en|km),
 * mode (cascade|search), levels (the deepest level asked for: "province district commune" stops at the commune),
 * value (any NCDD code: fills every level above it), required, disabled, label, name-province, name-district,
 * name-commune, name-village, name-postal-code (the submitted fields' names).
 * Events: kh-change (detail: the selection), input, change, kh-error (detail: { status, code, message }).
 * Theming: CSS custom properties (--kh-*) and ::part() (group, legend, field, label, select, input, listbox, option,
 * postal-code, summary, status, error).
 */
const VERSION = '0.1.0';
const LEVELS = ['province', 'district', 'commune', 'village'];
const PHNOM_PENH = '12';
/** The districts that are a krong (municipality); the tests check this list against the dataset. */
const KRONG = new Set(('0106 0110 0203 0305 0403 0502 0509 0603 0708 0709 0811 0812 0813 0904 1002 1105 1308 1410 1505 1602 1710 1715 '
  + '1801 1805 1806 1904 2006 2008 2108 2204 2302 2401 2506').split(' '));

/** The unit type of a unit, from its code: Khmer, Latin (as in addresses) and English words. */
function unitType(level, code) {
  const t = (km, latin, en) => ({ km, latin, en });
  if (level === 'province') return code === PHNOM_PENH ? t('រាជធានី', 'Reach Theani', 'Capital') : t('ខេត្ត', 'Khaet', 'Province');
  if (level === 'district') {
    if (code.startsWith(PHNOM_PENH)) return t('ខណ្ឌ', 'Khan', 'Section');
    return KRONG.has(code) ? t('ក្រុង', 'Krong', 'Municipality') : t('ស្រុក', 'Srok', 'District');
  }
  if (level === 'commune') {
    const district = code.slice(0, 4);
    return district.startsWith(PHNOM_PENH) || KRONG.has(district) ? t('សង្កាត់', 'Sangkat', 'Quarter') : t('ឃុំ', 'Khum', 'Commune');
  }
  return t('ភូមិ', 'Phum', 'Village');
}

const TEXT = {
  en: {
    address: 'Address', province: 'Province', khan: 'Khan (district)', district: 'District', sangkat: 'Sangkat (commune)',
    commune: 'Commune', village: 'Village', choose: 'Choose…', loading: 'Loading…', search: 'Search a village, commune, district or province',
    placeholder: 'Type a name or a postal code', postalCode: 'Postal code', noResults: 'Nothing found', results: (n) => `${n} result${n === 1 ? '' : 's'}`,
    missing: (what) => `Choose the ${what.toLowerCase()}.`, krong: ' (Krong)',
    failed: 'The address list could not be loaded. Try again later.', origin: 'This API key is not allowed on this site.',
  },
  km: {
    address: 'អាសយដ្ឋាន', province: 'ខេត្ត/រាជធានី', khan: 'ខណ្ឌ', district: 'ស្រុក/ក្រុង', sangkat: 'សង្កាត់', commune: 'ឃុំ/សង្កាត់',
    khum: 'ឃុំ', village: 'ភូមិ', choose: 'ជ្រើសរើស…', loading: 'កំពុងផ្ទុក…', search: 'ស្វែងរកភូមិ ឃុំ ស្រុក ឬខេត្ត',
    placeholder: 'វាយឈ្មោះ ឬលេខកូដប្រៃសណីយ៍', postalCode: 'លេខកូដប្រៃសណីយ៍', noResults: 'រកមិនឃើញ', results: (n) => `លទ្ធផល ${toKhmerDigits(n)}`,
    missing: (what) => `សូមជ្រើសរើស${what}។`, krong: '',
    failed: 'មិនអាចផ្ទុកបញ្ជីអាសយដ្ឋានបានទេ។ សូមព្យាយាមម្តងទៀតពេលក្រោយ។', origin: 'សោ API នេះមិនត្រូវបានអនុញ្ញាតនៅលើគេហទំព័រនេះទេ។',
  },
};

function toKhmerDigits(value) {
  return String(value).replace(/[0-9]/g, (d) => String.fromCharCode(0x17e0 + Number(d)));
}

const STYLE = `
:host { display: block; font: inherit; color: var(--kh-color, inherit); }
:host([hidden]) { display: none; }
fieldset { margin: 0; min-width: 0; padding: var(--kh-padding, .75rem); border: var(--kh-border, 1px solid #8a94a6); border-radius: var(--kh-radius, .4rem);
  background: var(--kh-background, transparent); }
legend { font-weight: 700; padding: 0 .25rem; }
.grid { display: grid; gap: var(--kh-gap, .6rem); grid-template-columns: repeat(auto-fit, minmax(min(100%, 13rem), 1fr)); }
.field { min-width: 0; position: relative; }
label { display: block; font-weight: 600; margin-bottom: .2rem; }
select, input { box-sizing: border-box; width: 100%; min-height: 2.6rem; padding: .4rem .5rem; font: inherit; color: var(--kh-control-color, #1d2433);
  background: var(--kh-control-background, #fff); border: var(--kh-control-border, 1px solid #6b7385); border-radius: var(--kh-radius, .4rem); }
select:disabled, input:disabled { opacity: .65; }
:focus-visible { outline: var(--kh-focus-ring, 3px solid #f0a500); outline-offset: 1px; }
:lang(km) { line-height: 1.9; font-family: var(--kh-font-km, inherit); }
ul { list-style: none; margin: .2rem 0 0; padding: 0; max-height: 16rem; overflow-y: auto; position: absolute; z-index: 10; left: 0; right: 0;
  background: var(--kh-control-background, #fff); border: var(--kh-control-border, 1px solid #6b7385); border-radius: var(--kh-radius, .4rem);
  box-shadow: 0 4px 12px rgba(0, 0, 0, .15); }
li { padding: .45rem .6rem; cursor: pointer; color: var(--kh-control-color, #1d2433); }
li small { color: var(--kh-muted, #4d5566); }
li[aria-selected="true"] { background: var(--kh-accent, #0b5cad); color: var(--kh-accent-color, #fff); }
li[aria-selected="true"] small { color: inherit; }
.postal, .summary { margin: .5rem 0 0; }
.postal output { font-weight: 700; font-variant-numeric: tabular-nums; }
.error { color: var(--kh-error-color, #a3261b); font-weight: 600; margin: .5rem 0 0; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
@media (prefers-reduced-motion: reduce) { * { transition: none !important; scroll-behavior: auto !important; } }
`;

/** One stylesheet for every picker; constructed, so that a page's Content-Security-Policy need not allow inline styles. */
let sheet;
function styleNodes() {
  if (typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    sheet ??= new CSSStyleSheet();
    if (sheet.cssRules.length === 0) sheet.replaceSync(STYLE);
    return { sheets: [sheet], nodes: [] };
  }
  const style = document.createElement('style');
  style.textContent = STYLE;
  return { sheets: [], nodes: [style] };
}

/** Responses shared by every picker on the page, by API base, key and path. */
const responses = new Map();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

let instances = 0;

export class KhAddressPicker extends HTMLElement {
  static formAssociated = true;
  static version = VERSION;
  static get observedAttributes() {
    return ['lang', 'mode', 'levels', 'disabled', 'required', 'value', 'label', 'api-key', 'api-base'];
  }

  constructor() {
    super();
    this._internals = this.attachInternals();
    this._root = this.attachShadow({ mode: 'open', delegatesFocus: true });
    // The inner controls' own input events (composed: they would leak out as the element's) stay inside; the element
    // fires one input, one change and one kh-change when its selection changes.
    this._root.addEventListener('input', (event) => event.stopPropagation());
    this._id = `kh${++instances}`;
    /** The chosen unit per level: { code, name_en, name_km, postal_code }, or null. */
    this._selection = { province: null, district: null, commune: null, village: null };
    /** The options of each level's select (cascade). */
    this._lists = { province: null, district: null, commune: null, village: null };
    this._results = [];
    this._active = -1;
    this._work = Promise.resolve();
    this._formDisabled = false;
    this._built = '';
  }

  connectedCallback() {
    this._render();
    if (this.hasAttribute('value')) this._enqueue(() => this._applyValue(this.getAttribute('value')));
    else if (this._mode === 'cascade') this._enqueue(() => this._loadList('province'));
  }

  attributeChangedCallback(name, old, value) {
    if (!this.isConnected || old === value) return;
    if (name === 'value') {
      this._enqueue(() => this._applyValue(value));
      return;
    }
    if (name === 'api-key' || name === 'api-base') return;
    this._render();
    if (this._mode === 'cascade' && !this._lists.province) this._enqueue(() => this._loadList('province'));
  }

  // --- public API ---------------------------------------------------------------------------------------------

  /** The deepest chosen NCDD code, or ''. Setting any NCDD code fills every level above it. */
  get value() {
    const unit = this._deepest();
    return unit ? unit.code : '';
  }
  set value(code) {
    this._enqueue(() => this._applyValue(code));
  }

  /** Every level's unit ({ code, name_en, name_km, unit_type: { km, latin, en } }), the postal code and the formatted address. */
  get selection() {
    const out = {};
    for (const level of LEVELS) {
      const unit = this._selection[level];
      out[level] = unit ? { code: unit.code, name_en: unit.name_en, name_km: unit.name_km, unit_type: unitType(level, unit.code) } : null;
    }
    out.postalCode = this.postalCode;
    out.formatted = this.formatted;
    return out;
  }

  /** The postal code of the deepest chosen unit (a village carries its commune's), or ''. */
  get postalCode() {
    const unit = this._deepest();
    return unit ? unit.postal_code : '';
  }

  /** The address in Khmer and in Latin script, smallest unit first, with the right unit words. */
  get formatted() {
    const km = [];
    const en = [];
    for (const level of [...LEVELS].reverse()) {
      const unit = this._selection[level];
      if (!unit) continue;
      const type = unitType(level, unit.code);
      // Some names already start with their unit word (ភូមិថ្មី, Phum Thmei): not twice.
      km.push(unit.name_km.startsWith(type.km) ? unit.name_km : `${type.km}${unit.name_km}`);
      if (level === 'province') en.push(unit.code === PHNOM_PENH ? unit.name_en : `${unit.name_en} Province`);
      else en.push(unit.name_en.startsWith(`${type.latin} `) ? unit.name_en : `${type.latin} ${unit.name_en}`);
    }
    const postal = this.postalCode;
    return {
      km: km.length ? `${km.join(' ')}${postal ? ` ${toKhmerDigits(postal)}` : ''}` : '',
      en: en.length ? `${en.join(', ')}${postal ? ` ${postal}` : ''}` : '',
    };
  }

  /** Resolves when the loads and lookups started so far have finished. */
  get ready() {
    return this._work;
  }

  get form() { return this._internals.form; }
  get validity() { return this._internals.validity; }
  get validationMessage() { return this._internals.validationMessage; }
  get willValidate() { return this._internals.willValidate; }
  checkValidity() { return this._internals.checkValidity(); }
  reportValidity() { return this._internals.reportValidity(); }

  formResetCallback() {
    this._clear('province');
    if (this.hasAttribute('value')) this._enqueue(() => this._applyValue(this.getAttribute('value')));
    this._afterChange(false);
    if (this._input) this._input.value = '';
    this._closeList();
  }

  formDisabledCallback(disabled) {
    this._formDisabled = disabled;
    this._syncDisabled();
  }

  formStateRestoreCallback(state) {
    if (typeof state === 'string' && state) this._enqueue(() => this._applyValue(state));
  }

  // --- attributes -----------------------------------------------------------------------------------------------

  get _lang() { return this.getAttribute('lang') === 'km' ? 'km' : 'en'; }
  get _t() { return TEXT[this._lang]; }
  get _mode() { return this.getAttribute('mode') === 'search' ? 'search' : 'cascade'; }
  /** The levels shown: from the province down to the deepest one named in `levels`. */
  get _levels() {
    const named = (this.getAttribute('levels') ?? '').toLowerCase().split(/[\s,]+/).filter((l) => LEVELS.includes(l));
    const deepest = named.length ? Math.max(...named.map((l) => LEVELS.indexOf(l))) : 3;
    return LEVELS.slice(0, deepest + 1);
  }
  _fieldName(level) {
    return this.getAttribute(`name-${level}`) || `${level}_code`;
  }
  get _apiBase() {
    const base = this.getAttribute('api-base');
    if (base) return base.replace(/\/+$/, '');
    try {
      const here = new URL(import.meta.url);
      return here.protocol.startsWith('http') ? here.origin : '';
    } catch {
      return '';
    }
  }

  // --- data -----------------------------------------------------------------------------------------------------

  /** Runs `task` after the work already queued, so that answers apply in the order they were asked. */
  _enqueue(task) {
    this._work = this._work.then(task).catch((error) => this._fail(error));
    return this._work;
  }

  /** GET a /v1 path's data, shared between pickers; retries a 429 or 503 after its Retry-After (three times at most). */
  async _get(path) {
    const key = `${this._apiBase}|${this.getAttribute('api-key') ?? ''}|${path}`;
    let pending = responses.get(key);
    if (!pending) {
      pending = this._fetch(path);
      responses.set(key, pending);
      pending.catch(() => responses.delete(key));
    }
    return pending;
  }

  async _fetch(path) {
    const headers = { accept: 'application/json' };
    const apiKey = this.getAttribute('api-key');
    if (apiKey) headers['x-api-key'] = apiKey;
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(`${this._apiBase}${path}`, { headers });
      if ((response.status === 429 || response.status === 503) && attempt < 3) {
        const wait = Number(response.headers.get('retry-after'));
        if (Number.isFinite(wait) && wait >= 0 && wait <= 10) {
          await sleep(wait * 1000 + 50);
          continue;
        }
      }
      const body = await response.json().catch(() => ({}));
      if (!response.ok) throw new ApiError(response.status, body?.error?.code ?? 'http_error', body?.error?.message ?? `HTTP ${response.status}`);
      return body.data;
    }
  }

  _listPath(level, parentCode) {
    return level === 'province' ? '/v1/provinces' : `/v1/${level}s/${parentCode}`;
  }

  async _loadList(level) {
    if (!this._levels.includes(level)) return;
    const parent = level === 'province' ? null : this._selection[LEVELS[LEVELS.indexOf(level) - 1]];
    if (level !== 'province' && !parent) return;
    const select = this._selects?.[level];
    if (select) {
      select.replaceChildren(new Option(this._t.loading, ''));
      select.disabled = true;
    }
    const list = await this._get(this._listPath(level, parent?.code));
    // The parent may have changed while the list was on its way.
    if (level !== 'province' && this._selection[LEVELS[LEVELS.indexOf(level) - 1]]?.code !== parent.code) return;
    this._lists[level] = list;
    this._fillSelect(level);
  }

  /** Sets every level above and at `code` (an NCDD code of 2, 4, 6 or 8 digits). An empty code clears. */
  async _applyValue(code) {
    code = String(code ?? '').trim();
    if (code === '') {
      this._clear('province');
      this._afterChange(false);
      return;
    }
    if (!/^[0-9]{2}([0-9]{2}){0,3}$/.test(code)) throw new ApiError(400, 'invalid_value', `Not an NCDD code: ${code.slice(0, 20)}`);
    const depth = Math.min(code.length / 2, this._levels.length);
    const chain = {};
    let parentCode = null;
    for (let i = 0; i < depth; i++) {
      const level = LEVELS[i];
      const list = await this._get(this._listPath(level, parentCode));
      const unit = list.find((u) => u.code === code.slice(0, 2 * (i + 1)));
      if (!unit) throw new ApiError(404, 'not_found', `No ${level} has code ${code.slice(0, 2 * (i + 1))}.`);
      chain[level] = { unit, list };
      parentCode = unit.code;
    }
    this._clear('province');
    for (const [level, { unit, list }] of Object.entries(chain)) {
      this._selection[level] = unit;
      this._lists[level] = list;
    }
    if (this._mode === 'cascade') {
      for (const level of this._levels) this._fillSelect(level);
      const next = this._levels[depth];
      if (next) await this._loadList(next);
    } else if (this._input) {
      this._input.value = this._describe(this._deepestLevel(), this._deepest());
    }
    this._afterChange(false);
  }

  _fail(error) {
    const status = error instanceof ApiError ? error.status : 0;
    const code = error instanceof ApiError ? error.code : 'network_error';
    if (this._error) {
      this._error.textContent = code === 'origin_not_allowed' ? this._t.origin : this._t.failed;
      this._error.hidden = false;
    }
    for (const level of LEVELS) {
      const select = this._selects?.[level];
      if (select && select.options.length === 1 && select.options[0].value === '') select.options[0].textContent = this._t.choose;
    }
    this._syncDisabled();
    this.dispatchEvent(new CustomEvent('kh-error', { bubbles: true, composed: true, detail: { status, code, message: error?.message ?? String(error) } }));
  }

  // --- state ----------------------------------------------------------------------------------------------------

  _deepestLevel() {
    let deepest = null;
    for (const level of this._levels) if (this._selection[level]) deepest = level;
    return deepest;
  }

  _deepest() {
    const level = this._deepestLevel();
    return level ? this._selection[level] : null;
  }

  /** Forgets `from` and every level below it. */
  _clear(from) {
    for (const level of LEVELS.slice(LEVELS.indexOf(from))) {
      this._selection[level] = null;
      // The province list never changes; the lists below depend on the choice above them.
      if (level !== 'province') this._lists[level] = null;
      this._fillSelect(level);
    }
  }

  /** After any change: the form value, validity, the postal code and summary, and (when the user did it) the events. */
  _afterChange(byUser) {
    const data = new FormData();
    for (const level of this._levels) if (this._selection[level]) data.append(this._fieldName(level), this._selection[level].code);
    const postal = this.postalCode;
    if (postal) data.append(this.getAttribute('name-postal-code') || 'postal_code', postal);
    this._internals.setFormValue(data, this.value);

    const missing = this._levels.find((level) => !this._selection[level]);
    if (this.hasAttribute('required') && missing) {
      const anchor = this._mode === 'cascade' ? this._selects[missing] : this._input;
      this._internals.setValidity({ valueMissing: true }, this._t.missing(this._levelLabel(missing)), anchor);
    } else {
      this._internals.setValidity({});
    }
    if (this._postal) this._postal.value = postal || '–';
    if (this._summary) {
      const text = this.formatted[this._lang];
      this._summary.textContent = this._mode === 'search' ? text : '';
      this._summary.hidden = this._mode !== 'search' || text === '';
    }
    if (this._error && byUser) this._error.hidden = true;
    if (byUser) {
      this.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      this.dispatchEvent(new Event('change', { bubbles: true }));
      this.dispatchEvent(new CustomEvent('kh-change', { bubbles: true, composed: true, detail: this.selection }));
    }
  }

  // --- rendering ------------------------------------------------------------------------------------------------

  /** The label of a level's control, with the unit words of the chosen parent (ខណ្ឌ in Phnom Penh, ស្រុក/ក្រុង elsewhere...). */
  _levelLabel(level) {
    const t = this._t;
    const province = this._selection.province?.code;
    const district = this._selection.district?.code;
    if (level === 'district') return province === PHNOM_PENH ? t.khan : t.district;
    if (level === 'commune') {
      if (!district) return province === PHNOM_PENH ? t.sangkat : t.commune;
      return unitType('commune', `${district}00`).latin === 'Sangkat' ? t.sangkat : (t.khum ?? t.commune);
    }
    return t[level];
  }

  /** A unit's text in an option: Khmer with its unit word where a list mixes kinds (ស្រុក/ក្រុង); Latin with (Krong). */
  _optionText(level, unit) {
    if (this._lang === 'km') return level === 'district' ? `${unitType(level, unit.code).km}${unit.name_km}` : unit.name_km;
    return level === 'district' && KRONG.has(unit.code) ? `${unit.name_en}${this._t.krong}` : unit.name_en;
  }

  /** A search result or a chosen unit: its name and unit word, its province, and its postal code. */
  _describe(level, unit) {
    if (!unit) return '';
    const type = unitType(level, unit.code);
    const province = level === 'province' ? null : this._lists.province?.find((p) => p.code === unit.code.slice(0, 2));
    if (this._lang === 'km') return `${type.km}${unit.name_km}${province ? `, ${unitType('province', province.code).km}${province.name_km}` : ''}`;
    return `${unit.name_en} (${type.latin})${province ? `, ${province.name_en}` : ''}`;
  }

  _render() {
    const signature = `${this._mode}|${this._lang}|${this._levels.join()}|${this.getAttribute('label') ?? ''}`;
    if (signature === this._built) {
      this._syncDisabled();
      this._afterChange(false);
      return;
    }
    this._built = signature;
    const t = this._t;
    const id = this._id;
    const { sheets, nodes } = styleNodes();
    this._root.adoptedStyleSheets = sheets;
    const fieldset = el('fieldset', { part: 'group', lang: this._lang });
    fieldset.append(el('legend', { part: 'legend' }, this.getAttribute('label') || t.address));
    const grid = el('div', { class: 'grid' });
    fieldset.append(grid);
    this._selects = null;
    this._input = null;
    if (this._mode === 'cascade') {
      this._selects = {};
      this._labels = {};
      for (const level of this._levels) {
        const field = el('div', { class: 'field', part: 'field' });
        const label = el('label', { for: `${id}-${level}`, part: 'label' }, this._levelLabel(level));
        const select = el('select', { id: `${id}-${level}`, part: 'select' });
        select.addEventListener('change', () => this._onSelect(level));
        field.append(label, select);
        grid.append(field);
        this._selects[level] = select;
        this._labels[level] = label;
      }
    } else {
      const field = el('div', { class: 'field', part: 'field' });
      const input = el('input', {
        id: `${id}-search`, part: 'input', type: 'text', role: 'combobox', autocomplete: 'off', spellcheck: 'false', maxlength: '200',
        'aria-autocomplete': 'list', 'aria-expanded': 'false', 'aria-controls': `${id}-listbox`, placeholder: t.placeholder,
      });
      const list = el('ul', { id: `${id}-listbox`, role: 'listbox', part: 'listbox', 'aria-label': t.search, hidden: '' });
      input.addEventListener('input', () => this._onType());
      input.addEventListener('keydown', (event) => this._onKey(event));
      input.addEventListener('blur', () => setTimeout(() => this._closeList(), 150));
      list.addEventListener('mousedown', (event) => event.preventDefault());
      list.addEventListener('click', (event) => {
        const option = event.target.closest('li[role=option]');
        if (option) this._choose(Number(option.dataset.index));
      });
      field.append(el('label', { for: input.id, part: 'label' }, t.search), input, list);
      grid.append(field);
      this._input = input;
      this._listbox = list;
      this._status = el('p', { class: 'visually-hidden', role: 'status', part: 'status' });
      fieldset.append(this._status);
      this._summary = el('p', { class: 'summary', part: 'summary', hidden: '' });
      fieldset.append(this._summary);
    }
    const postal = el('p', { class: 'postal', part: 'postal-code' });
    this._postal = el('output', { id: `${id}-postal`, 'aria-live': 'polite' }, '–');
    postal.append(`${t.postalCode}: `, this._postal);
    this._error = el('p', { class: 'error', part: 'error', role: 'alert', hidden: '' });
    fieldset.append(postal, this._error);
    this._root.replaceChildren(...nodes, fieldset);
    if (this._selects) for (const level of this._levels) this._fillSelect(level);
    if (this._mode === 'search' && !this._lists.province) this._enqueue(() => this._get('/v1/provinces').then((p) => { this._lists.province = p; }));
    if (this._input) this._input.value = this._describe(this._deepestLevel(), this._deepest());
    this._syncDisabled();
    this._afterChange(false);
  }

  _fillSelect(level) {
    const select = this._selects?.[level];
    if (!select) return;
    const list = this._lists[level];
    const chosen = this._selection[level]?.code ?? '';
    const options = [new Option(this._t.choose, '')];
    for (const unit of list ?? []) {
      const option = new Option(this._optionText(level, unit), unit.code, false, unit.code === chosen);
      options.push(option);
    }
    select.replaceChildren(...options);
    select.value = chosen;
    if (this._labels?.[level]) this._labels[level].textContent = this._levelLabel(level);
    this._syncDisabled();
  }

  _syncDisabled() {
    const off = this.hasAttribute('disabled') || this._formDisabled;
    if (this._selects) {
      for (const level of this._levels) this._selects[level].disabled = off || !this._lists[level];
    }
    if (this._input) this._input.disabled = off;
  }

  // --- cascade --------------------------------------------------------------------------------------------------

  _onSelect(level) {
    const code = this._selects[level].value;
    const unit = (this._lists[level] ?? []).find((u) => u.code === code) ?? null;
    const below = LEVELS[LEVELS.indexOf(level) + 1];
    if (below) this._clear(below);
    this._selection[level] = unit;
    for (const l of this._levels.slice(LEVELS.indexOf(level) + 1)) if (this._labels?.[l]) this._labels[l].textContent = this._levelLabel(l);
    this._afterChange(true);
    if (unit && below) this._enqueue(() => this._loadList(below));
  }

  // --- search (WAI-ARIA combobox) -------------------------------------------------------------------------------

  _onType() {
    clearTimeout(this._timer);
    const q = this._input.value.trim().slice(0, 200);
    if (this._deepest()) {
      this._clear('province');
      this._afterChange(true);
    }
    if (q.length === 0) {
      this._results = [];
      this._closeList();
      return;
    }
    this._timer = setTimeout(() => this._enqueue(() => this._search(q)), 250);
  }

  async _search(q) {
    const data = await this._get(`/v1/search?q=${encodeURIComponent(q)}&pageSize=20`);
    if (this._input.value.trim().slice(0, 200) !== q) return;
    const levels = this._levels;
    this._results = data.filter((r) => levels.includes(r.level)).slice(0, 10);
    this._active = -1;
    this._showList();
  }

  _showList() {
    const t = this._t;
    const items = this._results.map((unit, index) => {
      const item = el('li', { id: `${this._id}-option-${index}`, role: 'option', part: 'option', 'aria-selected': 'false', 'data-index': String(index) });
      item.append(this._describe(unit.level, unit), ' ', el('small', {}, `· ${unit.postal_code}`));
      return item;
    });
    if (items.length === 0) items.push(el('li', { role: 'option', 'aria-disabled': 'true', 'aria-selected': 'false', part: 'option' }, t.noResults));
    this._listbox.replaceChildren(...items);
    this._listbox.hidden = false;
    this._input.setAttribute('aria-expanded', 'true');
    this._status.textContent = this._results.length ? t.results(this._results.length) : t.noResults;
    this._input.removeAttribute('aria-activedescendant');
  }

  _closeList() {
    if (!this._listbox) return;
    this._listbox.hidden = true;
    this._input.setAttribute('aria-expanded', 'false');
    this._input.removeAttribute('aria-activedescendant');
    this._active = -1;
  }

  _activate(index) {
    const options = this._listbox.querySelectorAll('li[data-index]');
    if (options.length === 0) return;
    this._active = (index + options.length) % options.length;
    options.forEach((option, i) => option.setAttribute('aria-selected', String(i === this._active)));
    const option = options[this._active];
    this._input.setAttribute('aria-activedescendant', option.id);
    option.scrollIntoView?.({ block: 'nearest' });
  }

  _onKey(event) {
    const open = !this._listbox.hidden;
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open) {
          if (this._results.length === 0) return;
          this._showList();
          if (!event.altKey) this._activate(0);
        } else {
          this._activate(this._active + 1);
        }
        return;
      case 'ArrowUp':
        event.preventDefault();
        if (event.altKey) return this._closeList();
        if (!open) {
          if (this._results.length === 0) return;
          this._showList();
          this._activate(this._results.length - 1);
        } else {
          this._activate(this._active - 1);
        }
        return;
      case 'Enter':
        if (open && this._active >= 0) {
          event.preventDefault();
          this._choose(this._active);
        }
        return;
      case 'Escape':
        event.preventDefault();
        if (open) return this._closeList();
        this._input.value = '';
        this._results = [];
        if (this._deepest()) {
          this._clear('province');
          this._afterChange(true);
        }
        return;
      case 'Tab':
        this._closeList();
        return;
      default:
    }
  }

  _choose(index) {
    const unit = this._results[index];
    if (!unit) return;
    this._closeList();
    this._input.value = this._describe(unit.level, unit);
    this._enqueue(async () => {
      await this._applyValue(unit.code);
      this._afterChange(true);
    });
  }
}

/** A new element with attributes and text. */
function el(tag, attributes = {}, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

if (!customElements.get('kh-address-picker')) customElements.define('kh-address-picker', KhAddressPicker);
