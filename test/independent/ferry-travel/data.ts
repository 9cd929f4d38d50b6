// The served data of the ferry-travel server: ports and crossings are not created through the API (the spec has no
// create for them), so a backend holds them from its timetable. Written for this server; the two crossings of the
// spec's example are among them (a reservation of the spec's examples names one), dated in the past as examples
// are, so that a list asked with no date (today onward) leaves them out.

/** A port as the spec's `Port` schema has it. */
export interface Port {
  id: string;
  name: string;
  country_code: string;
}

/** A crossing as the spec's `Crossing` schema has it. */
export interface Crossing {
  id: string;
  origin: string;
  destination: string;
  departure_time: string;
  arrival_time: string;
  operator: string;
  price: number;
  cars_allowed: boolean;
  pets_allowed: boolean;
}

const DOVER = '6b1f3c0e-3c55-4b59-9d1f-1f4a3b8e2a01';
const CALAIS = '0d0c4f1a-8f9e-4e8b-a3c1-55a6c1f2b302';
const DUNKIRK = '3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b06';
const BERGEN = '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c07';

/** Every port the server serves (ISO 3166-1 alpha-2 country codes). */
export const FERRY_PORTS: readonly Port[] = [
  { id: DOVER, name: 'Dover Eastern Docks', country_code: 'GB' },
  { id: CALAIS, name: 'Calais Port', country_code: 'FR' },
  { id: DUNKIRK, name: 'Dunkirk Port', country_code: 'FR' },
  { id: BERGEN, name: 'Bergen Harbour', country_code: 'NO' },
  { id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e08', name: 'Newcastle International Ferry Terminal', country_code: 'GB' },
  { id: '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f09', name: 'Rotterdam Europoort', country_code: 'NL' },
];

/** Crossings of every route, some past (the spec's examples) and some years ahead (upcoming whatever today is). */
export const FERRY_CROSSINGS: readonly Crossing[] = [
  { id: '9c3f6a41-0b8e-4c2d-8f7a-6e5d4c3b2a04', origin: DOVER, destination: CALAIS, departure_time: '2024-02-01T10:00:00Z', arrival_time: '2024-02-01T11:30:00Z', operator: 'Channel Lines', price: 79.5, cars_allowed: true, pets_allowed: true },
  { id: '4e7d2b19-6a3c-4f58-b1d2-8c9e0f1a2b05', origin: DOVER, destination: CALAIS, departure_time: '2024-02-01T14:00:00Z', arrival_time: '2024-02-01T15:30:00Z', operator: 'Straits Ferries', price: 64, cars_allowed: false, pets_allowed: true },
  ...Array.from({ length: 14 }, (_, at): Crossing => ({
    id: `5b4c3d2e-1f0a-4b9c-8d7e-${String(at).padStart(12, '0')}`,
    origin: DOVER,
    destination: CALAIS,
    departure_time: `2040-03-${String(at + 1).padStart(2, '0')}T08:00:00Z`,
    arrival_time: `2040-03-${String(at + 1).padStart(2, '0')}T09:30:00Z`,
    operator: at % 2 === 0 ? 'Channel Lines' : 'Straits Ferries',
    price: 50 + at,
    cars_allowed: at % 3 !== 0,
    pets_allowed: at % 4 !== 0,
  })),
  { id: '6c5d4e3f-2a1b-4c0d-9e8f-7a6b5c4d3e10', origin: CALAIS, destination: DOVER, departure_time: '2040-03-01T12:00:00Z', arrival_time: '2040-03-01T13:30:00Z', operator: 'Channel Lines', price: 79.5, cars_allowed: true, pets_allowed: false },
  { id: '8e7f6a5b-4c3d-4e2f-8a1b-9c0d1e2f3a11', origin: BERGEN, destination: DUNKIRK, departure_time: '2040-04-01T18:00:00Z', arrival_time: '2040-04-03T07:00:00Z', operator: 'North Sea Line', price: 240, cars_allowed: true, pets_allowed: true },
];
