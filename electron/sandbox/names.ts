import { faker } from '@faker-js/faker/locale/en_AU';

/**
 * Australian first and last names from faker's en_AU locale, read once as plain lists so the
 * sandbox's own PRNG can pick from them without reseeding faker for every record.
 */
const person = faker.rawDefinitions.person as { first_name?: { female?: string[]; male?: string[] }; last_name?: { generic?: string[] } };
export const FIRST_NAMES: readonly string[] = [...(person.first_name?.female ?? []), ...(person.first_name?.male ?? [])];
export const LAST_NAMES: readonly string[] = person.last_name?.generic ?? [];
if (FIRST_NAMES.length < 50 || LAST_NAMES.length < 50) throw new Error('faker en_AU name lists are missing');

export const STREET_NAMES = [
  'George',
  'Pitt',
  'Collins',
  'Bourke',
  'Queen',
  'King',
  'Adelaide',
  'Hay',
  'Murray',
  'Flinders',
  'Elizabeth',
  'Victoria',
] as const;
export const SUBURBS = [
  ['Sydney', 'NSW', '2000'],
  ['Parramatta', 'NSW', '2150'],
  ['Melbourne', 'VIC', '3000'],
  ['Geelong', 'VIC', '3220'],
  ['Brisbane', 'QLD', '4000'],
  ['Cairns', 'QLD', '4870'],
  ['Perth', 'WA', '6000'],
  ['Adelaide', 'SA', '5000'],
  ['Hobart', 'TAS', '7000'],
  ['Canberra', 'ACT', '2600'],
  ['Darwin', 'NT', '0800'],
] as const;
