/** Types of <kh-address-picker> (the element is plain JavaScript; see kh-address-picker.js). */
export type Level = 'province' | 'district' | 'commune' | 'village';

export interface UnitType {
  /** e.g. ខណ្ឌ */
  km: string;
  /** e.g. Khan */
  latin: string;
  /** e.g. Section */
  en: string;
}

export interface PickedUnit {
  code: string;
  name_en: string;
  name_km: string;
  unit_type: UnitType;
}

export interface Selection {
  province: PickedUnit | null;
  district: PickedUnit | null;
  commune: PickedUnit | null;
  village: PickedUnit | null;
  /** The deepest unit's postal code ('' when nothing is chosen). */
  postalCode: string;
  /** The address in Khmer and Latin script, smallest unit first. */
  formatted: { km: string; en: string };
}

export interface PickerError {
  status: number;
  /** The API's error code (e.g. origin_not_allowed), or network_error. */
  code: string;
  message: string;
}

export declare class KhAddressPicker extends HTMLElement {
  static readonly formAssociated: true;
  static readonly version: string;
  /** The deepest chosen NCDD code; set any code to fill every level above it. */
  value: string;
  readonly selection: Selection;
  readonly postalCode: string;
  readonly formatted: { km: string; en: string };
  /** Resolves when the loads started so far are done. */
  readonly ready: Promise<void>;
  readonly form: HTMLFormElement | null;
  readonly validity: ValidityState;
  readonly validationMessage: string;
  readonly willValidate: boolean;
  checkValidity(): boolean;
  reportValidity(): boolean;
}

declare global {
  interface HTMLElementTagNameMap {
    'kh-address-picker': KhAddressPicker;
  }
  interface HTMLElementEventMap {
    'kh-change': CustomEvent<Selection>;
    'kh-error': CustomEvent<PickerError>;
  }
}
