import type { Permission } from '../../shared/api';
import type { RecordActions } from '../components/resource/row-action';
import type { Sniffed } from './sniff';

/** The characters a rider and card search needs before it asks the server (`@`, and numbers typed anywhere). */
export const RIDER_QUERY_MIN = 4;

/** A record the palette can find and open: a staff account, a district, later a station or a card. */
export interface EntityRecord {
  key: string;
  title: string;
  subtitle?: string;
  keywords?: string[];
  /** Where opening it goes: a focused table or dialog of its screen. */
  path: string;
  /** Runs just before navigating: hands personal data (a phone, a citizen id) to the screen in memory, never in `path`. */
  onOpen?(): void;
  /**
   * The record's row and its resource's declared actions (`recordActions(stationActions, row)`):
   * Tab or → on the record lists those the account may take on it now.
   */
  actions?: RecordActions;
}

/**
 * Where records come from. `load` sources are fetched once per palette session and ranked locally
 * with pinyin; `query` sources ask the server (debounced, stale answers dropped). Stations, lines,
 * versions, riders and cards plug in the same way; `prefix` puts a source in a mode
 * (`#` stations and lines, `@` riders and cards).
 */
export interface EntitySource {
  id: string;
  group: string;
  permission: Permission;
  prefix?: '#' | '@';
  /**
   * The page its rows open (`/settings/districts`): the source is asked only for accounts whose
   * menus hold it. Required, so no source can forget it; the palette also drops any row whose own
   * `path` leads to a page the account cannot open.
   */
  page: string;
  load?(): Promise<EntityRecord[]>;
  query?(q: string): Promise<EntityRecord[]>;
  /**
   * The source's `query` looks numbers up (a phone, a citizen id, a card) and sends them in a request
   * body. Every other source searches by name with a GET, and the palette never asks it with a query
   * that holds such a number (`holdsPersonalNumber`, shared/domain/mask): the number would sit in the request URL.
   */
  takesNumbers?: boolean;
  /**
   * A row for a typed number the source can look up (a phone, a card, a citizen id), shown first.
   * Sources are filtered by permission, so only accounts that may open the row are offered it.
   */
  lookup?(s: Sniffed): EntityRecord | null;
}
