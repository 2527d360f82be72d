import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small address provider of Loqate's Capture Interactive shape (issue 22), for the API and browser tests: the server
 * reaches it through ADDRESS_LOOKUP_URL exactly as it would reach Loqate.
 *   GET /Find/v1.10/json3.ws?Key&Text&Container  -> { Items: [{ Id, Type, Text, Highlight, Description }] }
 *   GET /Retrieve/v1.20/json3.ws?Key&Id          -> { Items: [{ Id, Line1..Line5, City, Province, ProvinceCode, ... }] }
 * A wrong key, an unknown id, or `mode = 'refuse'` answer Loqate's error item (Error, Description, Cause, Resolution);
 * `mode = 'broken'` answers a 500 with HTML; `mode = 'hang'` never answers.
 *
 * Its addresses: four single ones (US and UK), and Riverside House, a building (Type 'Building', a container) holding
 * three flats, which a Find with `Container` opens.
 */
export interface FakeAddressProvider {
  url: string;
  key: string;
  mode: 'ok' | 'refuse' | 'broken' | 'hang';
  /** The provider's refusal text: a test checks it never reaches our answers. */
  readonly refusal: { Error: string; Description: string; Cause: string; Resolution: string };
  requests: Array<{ path: string; params: Record<string, string> }>;
  close(): Promise<void>;
}

interface Place {
  Id: string;
  Line1: string;
  Line2?: string;
  City: string;
  Province: string;
  ProvinceCode: string;
  PostalCode: string;
  CountryIso2: string;
  /** the container it is in (Riverside House's flats) */
  in?: string;
}

const PLACES: Place[] = [
  {
    Id: 'US|1001',
    Line1: '350 Fifth Avenue',
    City: 'New York',
    Province: 'New York',
    ProvinceCode: 'NY',
    PostalCode: '10118',
    CountryIso2: 'US',
  },
  {
    Id: 'US|1002',
    Line1: '1600 Pennsylvania Avenue NW',
    City: 'Washington',
    Province: 'District of Columbia',
    ProvinceCode: 'DC',
    PostalCode: '20500',
    CountryIso2: 'US',
  },
  {
    Id: 'US|1003',
    Line1: '351 Fifth Street',
    City: 'Brooklyn',
    Province: 'New York',
    ProvinceCode: 'NY',
    PostalCode: '11215',
    CountryIso2: 'US',
  },
  { Id: 'GB|2001', Line1: '10 Downing Street', City: 'London', Province: '', ProvinceCode: '', PostalCode: 'SW1A 2AA', CountryIso2: 'GB' },
  ...[1, 2, 3].map((n) => ({
    Id: `GB|300${n}`,
    Line1: `Flat ${n}`,
    Line2: 'Riverside House, 2 Thames Walk',
    City: 'London',
    Province: '',
    ProvinceCode: '',
    PostalCode: 'SE1 9PH',
    CountryIso2: 'GB',
    in: 'GB|B|riverside',
  })),
];
const BUILDING = {
  Id: 'GB|B|riverside',
  Type: 'Building',
  Text: 'Riverside House, 2 Thames Walk',
  Description: 'London, SE1 9PH - 3 Addresses',
};

const suggestion = (p: Place) => ({
  Id: p.Id,
  Type: 'Address',
  Text: p.Line2 ? `${p.Line1}, ${p.Line2}` : p.Line1,
  Highlight: '',
  Description: `${p.City}${p.ProvinceCode ? ` ${p.ProvinceCode}` : ''}, ${p.PostalCode}`,
});

/** Flat 2 of Riverside House (GB|3002) as our server answers it (src/contract/address.ts AddressRow). */
export const FLAT_2 = {
  Line1: 'Flat 2',
  Line2: 'Riverside House, 2 Thames Walk',
  Line3: '',
  Line4: '',
  Line5: '',
  City: 'London',
  Province: '',
  ProvinceCode: '',
  PostalCode: 'SE1 9PH',
  CountryIso2: 'GB',
};

export async function startFakeAddressProvider(key = 'ak_test_e2e_secret'): Promise<FakeAddressProvider> {
  const refusal = {
    Error: '2',
    Description: 'Unknown key',
    Cause: 'The key you are using to access the service was not found.',
    Resolution: 'Please check that the key is correct. It should be in the form AA11-AA11-AA11-AA11.',
  };
  const provider: FakeAddressProvider = { url: '', key, mode: 'ok', refusal, requests: [], close: async () => {} };
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const params = Object.fromEntries(url.searchParams);
    provider.requests.push({ path: url.pathname, params });
    if (provider.mode === 'hang') return;
    if (provider.mode === 'broken') {
      res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Internal error</h1>');
      return;
    }
    const send = (items: unknown[]) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ Items: items }));
    if (provider.mode === 'refuse' || params.Key !== key) return send([refusal]);
    if (url.pathname === '/Find/v1.10/json3.ws') {
      if (params.Container) return send(PLACES.filter((p) => p.in === params.Container).map(suggestion));
      const words = (params.Text ?? '')
        .toLowerCase()
        .split(/[\s,]+/)
        .filter(Boolean);
      const matches = (text: string) => words.length > 0 && words.every((w) => text.toLowerCase().includes(w));
      const items = [
        ...(matches(`${BUILDING.Text} ${BUILDING.Description}`) ? [BUILDING] : []),
        ...PLACES.filter((p) => !p.in && matches(`${p.Line1} ${p.City} ${p.ProvinceCode} ${p.PostalCode}`)).map(suggestion),
      ];
      return send(items);
    }
    if (url.pathname === '/Retrieve/v1.20/json3.ws') {
      const p = PLACES.find((x) => x.Id === params.Id);
      if (!p) return send([{ Error: '1001', Description: 'Id Invalid', Cause: 'The Id parameter supplied was invalid.', Resolution: '' }]);
      return send([
        {
          Id: p.Id,
          DomesticId: '',
          Language: 'ENG',
          Company: '',
          Line1: p.Line1,
          Line2: p.Line2 ?? '',
          Line3: '',
          Line4: '',
          Line5: '',
          City: p.City,
          Province: p.Province,
          ProvinceName: p.Province,
          ProvinceCode: p.ProvinceCode,
          PostalCode: p.PostalCode,
          CountryName: p.CountryIso2 === 'US' ? 'United States' : 'United Kingdom',
          CountryIso2: p.CountryIso2,
          Label: [p.Line1, p.Line2, p.City, p.PostalCode].filter(Boolean).join('\n'),
        },
      ]);
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  provider.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return provider;
}
