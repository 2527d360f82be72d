import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { forSeller, type ServerConfig } from '../../config';

/**
 * A seller's wallet credentials (issue 17): a JSON file named by WALLET_CONFIG_<SLUG> (or WALLET_CONFIG for every
 * seller), never the seller config that GET config sends to browsers. Paths in it are relative to the file:
 *
 *   { "apple": { "pass_type_id": "pass.org.example.museum", "team_id": "ABCDE12345",
 *                "signer_cert": "apple/signer-cert.pem", "signer_key": "apple/signer-key.pem",
 *                "signer_key_passphrase": "optional", "wwdr": "apple/wwdr.pem", "icon": "apple/icon.png (optional)" },
 *     "google": { "issuer_id": "3388000000012345678", "service_account": "google/service-account.json" } }
 *
 * Either provider may be left out. A file that does not read, or names a certificate or key that does not parse, is
 * refused with the reason (the server checks every file at start: server/main.ts).
 */
export interface AppleWallet {
  passTypeId: string;
  teamId: string;
  signerCert: string;
  signerKey: string;
  signerKeyPassphrase?: string;
  wwdr: string;
  /** the pass's icon (PNG), when the seller gives one; else a square of the seller's colour is drawn */
  icon: Buffer | null;
}

export interface GoogleWallet {
  issuerId: string;
  /** the service account's e-mail address, the JWT's issuer */
  clientEmail: string;
  /** its private key (PEM), which signs the save links (RS256) */
  privateKey: string;
}

export interface WalletCredentials {
  apple: AppleWallet | null;
  google: GoogleWallet | null;
}

export const NO_WALLET: WalletCredentials = { apple: null, google: null };

const text = (value: unknown, field: string, pattern?: RegExp): string => {
  if (typeof value !== 'string' || !value.trim() || (pattern && !pattern.test(value))) throw new Error(`${field} is missing or malformed`);
  return value.trim();
};

/** Reads and checks a wallet file; throws an Error that names the file and the problem. */
export function readWalletFile(file: string): WalletCredentials {
  const dir = path.dirname(file);
  const read = (p: unknown, field: string) => readFileSync(path.resolve(dir, text(p, field)), 'utf8');
  try {
    const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, unknown> | undefined>;
    let apple: AppleWallet | null = null;
    if (json.apple) {
      const a = json.apple;
      apple = {
        passTypeId: text(a.pass_type_id, 'apple.pass_type_id', /^pass\.[A-Za-z0-9.-]+$/),
        teamId: text(a.team_id, 'apple.team_id', /^[A-Z0-9]{10}$/),
        signerCert: read(a.signer_cert, 'apple.signer_cert'),
        signerKey: read(a.signer_key, 'apple.signer_key'),
        ...(typeof a.signer_key_passphrase === 'string' ? { signerKeyPassphrase: a.signer_key_passphrase } : {}),
        wwdr: read(a.wwdr, 'apple.wwdr'),
        icon: a.icon === undefined ? null : readFileSync(path.resolve(dir, text(a.icon, 'apple.icon'))),
      };
      new X509Certificate(apple.signerCert);
      new X509Certificate(apple.wwdr);
      createPrivateKey({ key: apple.signerKey, ...(apple.signerKeyPassphrase ? { passphrase: apple.signerKeyPassphrase } : {}) });
    }
    let google: GoogleWallet | null = null;
    if (json.google) {
      const g = json.google;
      const account = JSON.parse(read(g.service_account, 'google.service_account')) as Record<string, unknown>;
      google = {
        issuerId: text(g.issuer_id, 'google.issuer_id', /^\d+$/),
        clientEmail: text(account.client_email, 'google.service_account client_email'),
        privateKey: text(account.private_key, 'google.service_account private_key'),
      };
      createPrivateKey(google.privateKey);
    }
    return { apple, google };
  } catch (err) {
    throw new Error(`wallet config ${file}: ${(err as Error).message}`, { cause: err });
  }
}

const cache = new Map<string, WalletCredentials>();

/** The seller's wallet credentials (read once per file), or none when no file is configured for it. */
export function walletOf(config: Pick<ServerConfig, 'walletConfigFiles'>, slug: string): WalletCredentials {
  const file = forSeller(config.walletConfigFiles, slug);
  if (!file) return NO_WALLET;
  let creds = cache.get(file);
  if (!creds) cache.set(file, (creds = readWalletFile(file)));
  return creds;
}
