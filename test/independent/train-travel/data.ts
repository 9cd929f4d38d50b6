// The served data of the Train Travel backends: stations and trips are not created through the API (the
// description has no write for them), so a backend holds them from its timetable. Written for these servers; the
// two stations of the description's examples are among them, and trips run between them on the example's date
// (2024-02-01) and on days of 2040, more of them than one default page holds.

/** A station as the description's `Station` schema has it. */
export interface Station {
  id: string;
  name: string;
  address: string;
  country_code: string;
  timezone: string;
  /** Latitude and longitude in degrees, for the `coordinates` proximity search (not an answered member). */
  at: readonly [number, number];
}

/** A trip as the description's `Trip` schema has it. */
export interface Trip {
  id: string;
  origin: string;
  destination: string;
  departure_time: string;
  arrival_time: string;
  operator: string;
  price: number;
  bicycles_allowed: boolean;
  dogs_allowed: boolean;
}

const BERLIN = 'efdbb9d1-02c2-4bc3-afb7-6788d8782b1e';
const PARIS = 'b2e783e1-c824-4d63-b37a-d8d698862f1d';
const MILANO = '0c6d1c2e-8b4f-4f3e-9a51-3d2c1b0a9f01';

/** Every station the servers serve (ISO 3166-1 alpha-2 country codes, IANA time zones). */
export const STATIONS: readonly Station[] = [
  { id: BERLIN, name: 'Berlin Hauptbahnhof', address: 'Invalidenstraße 10557 Berlin, Germany', country_code: 'DE', timezone: 'Europe/Berlin', at: [52.5251, 13.3694] },
  { id: PARIS, name: 'Paris Gare du Nord', address: '18 Rue de Dunkerque 75010 Paris, France', country_code: 'FR', timezone: 'Europe/Paris', at: [48.8809, 2.3553] },
  { id: MILANO, name: 'Milano Centrale', address: 'Piazza Duca d’Aosta 1, 20124 Milano, Italy', country_code: 'IT', timezone: 'Europe/Rome', at: [45.4862, 9.2047] },
  { id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c02', name: 'Paris Gare de Lyon', address: 'Place Louis-Armand 75012 Paris, France', country_code: 'FR', timezone: 'Europe/Paris', at: [48.8443, 2.3744] },
  { id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d03', name: 'München Hauptbahnhof', address: 'Bayerstraße 10a 80335 München, Germany', country_code: 'DE', timezone: 'Europe/Berlin', at: [48.1402, 11.5600] },
  { id: '3c4d5e6f-7a8b-4c9d-8e1f-2a3b4c5d6e04', name: 'Hamburg Hauptbahnhof', address: 'Hachmannplatz 16 20099 Hamburg, Germany', country_code: 'DE', timezone: 'Europe/Berlin', at: [53.5530, 10.0069] },
  { id: '4d5e6f7a-8b9c-4d0e-9f2a-3b4c5d6e7f05', name: 'Berlin Ostbahnhof', address: 'Koppenstraße 3 10243 Berlin, Germany', country_code: 'DE', timezone: 'Europe/Berlin', at: [52.5104, 13.4348] },
  { id: '5e6f7a8b-9c0d-4e1f-8a3b-4c5d6e7f8a06', name: 'Amsterdam Centraal', address: 'Stationsplein 1012 AB Amsterdam, Netherlands', country_code: 'NL', timezone: 'Europe/Amsterdam', at: [52.3791, 4.9003] },
  { id: '6f7a8b9c-0d1e-4f2a-9b4c-5d6e7f8a9b07', name: 'Bruxelles-Midi', address: 'Avenue Fonsny 47B 1060 Bruxelles, Belgium', country_code: 'BE', timezone: 'Europe/Brussels', at: [50.8358, 4.3359] },
  { id: '7a8b9c0d-1e2f-4a3b-8c5d-6e7f8a9b0c08', name: 'Wien Hauptbahnhof', address: 'Am Hauptbahnhof 1 1100 Wien, Austria', country_code: 'AT', timezone: 'Europe/Vienna', at: [48.1851, 16.3777] },
  { id: '8b9c0d1e-2f3a-4b4c-9d6e-7f8a9b0c1d09', name: 'Zürich HB', address: 'Bahnhofplatz 8001 Zürich, Switzerland', country_code: 'CH', timezone: 'Europe/Zurich', at: [47.3782, 8.5402] },
  { id: '9c0d1e2f-3a4b-4c5d-8e7f-8a9b0c1d2e10', name: 'Praha hlavní nádraží', address: 'Wilsonova 300/8 120 00 Praha, Czechia', country_code: 'CZ', timezone: 'Europe/Prague', at: [50.0832, 14.4353] },
  { id: 'a0d1e2f3-4b5c-4d6e-9f8a-9b0c1d2e3f11', name: 'København H', address: 'Bernstorffsgade 16 1577 København, Denmark', country_code: 'DK', timezone: 'Europe/Copenhagen', at: [55.6726, 12.5646] },
  { id: 'b1e2f3a4-5c6d-4e7f-8a9b-0c1d2e3f4a12', name: 'Lyon Part-Dieu', address: '5 Place Charles Béraudier 69003 Lyon, France', country_code: 'FR', timezone: 'Europe/Paris', at: [45.7606, 4.8593] },
];

/** The trips of one route on `day` (YYYY-MM-DD), `count` of them an hour apart from 06:00 UTC. */
function day(origin: string, destination: string, date: string, count: number, seed: number): Trip[] {
  return Array.from({ length: count }, (_, at): Trip => {
    const hour = String(6 + at).padStart(2, '0');
    const arrival = String(8 + at).padStart(2, '0');
    return {
      id: `${(seed + at).toString(16).padStart(8, '0')}-6d95-433f-92d1-83f67b7755${String(at).padStart(2, '0')}`,
      origin,
      destination,
      departure_time: `${date}T${hour}:00:00Z`,
      arrival_time: `${date}T${arrival}:00:00Z`,
      operator: at % 2 === 0 ? 'Deutsche Bahn' : 'SNCF',
      price: 50 + at * 5,
      bicycles_allowed: at % 3 !== 0,
      dogs_allowed: at % 4 !== 0,
    };
  });
}

/** Every trip: Berlin to Paris on the example's date and in 2040, Paris to Berlin, and Milano to Berlin. */
export const TRIPS: readonly Trip[] = [
  ...day(BERLIN, PARIS, '2024-02-01', 14, 0xea399ba1),
  ...day(PARIS, BERLIN, '2024-02-01', 4, 0x4d67459c),
  ...day(BERLIN, PARIS, '2040-03-01', 12, 0x5b4c3d2e),
  ...day(MILANO, BERLIN, '2040-03-01', 3, 0x6c5d4e3f),
];
