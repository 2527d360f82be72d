import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import forge from 'node-forge';

/**
 * Wallet credentials made at run time (issue 17), in the shapes a seller gets them: for Apple Wallet a Pass Type ID
 * signing certificate and its key (PEM) under a stand-in for Apple's WWDR intermediate, for Google Wallet a
 * service-account key file (JSON, as Google's console downloads it) and an issuer id. Nothing here is a real
 * credential: the keys are generated for each run and never leave the machine. `file` is the wallet config the server
 * reads (WALLET_CONFIG, README "Wallet passes").
 */
export interface TestWallet {
  file: string;
  passTypeId: string;
  teamId: string;
  issuerId: string;
  clientEmail: string;
  /** the certificate that signs the passes, and the stand-in WWDR certificate above it (PEM) */
  signerCertPem: string;
  wwdrPem: string;
  /** the public half of the service-account key (PEM), to check the save link's JWT */
  googlePublicKeyPem: string;
}

const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 });

function certificate(opts: {
  subject: forge.pki.CertificateField[];
  issuer: forge.pki.CertificateField[];
  publicKeyPem: string;
  signingKeyPem: string;
  ca: boolean;
}): string {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(opts.publicKeyPem);
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = new Date(Date.now() + 365 * 86_400_000);
  cert.setSubject(opts.subject);
  cert.setIssuer(opts.issuer);
  cert.setExtensions([
    { name: 'basicConstraints', cA: opts.ca },
    { name: 'keyUsage', keyCertSign: opts.ca, cRLSign: opts.ca, digitalSignature: !opts.ca },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(opts.signingKeyPem), forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

/** Writes a wallet config with both providers into `dir` (apple/, google/ and wallet.json). */
export function makeTestWallet(dir: string): TestWallet {
  const passTypeId = 'pass.org.example.storefront-test';
  const teamId = 'TEST123456';
  const issuerId = '3388000000099999999';
  const clientEmail = 'storefront-test@wallet-test.iam.gserviceaccount.com';
  const pem = { type: 'pkcs8', format: 'pem' } as const;
  const spki = { type: 'spki', format: 'pem' } as const;

  const ca = rsa();
  const caName = [
    { name: 'commonName', value: 'Test stand-in for Apple Worldwide Developer Relations CA' },
    { name: 'organizationName', value: 'Storefront tests' },
  ];
  const wwdrPem = certificate({
    subject: caName,
    issuer: caName,
    publicKeyPem: ca.publicKey.export(spki) as string,
    signingKeyPem: ca.privateKey.export(pem) as string,
    ca: true,
  });
  const signer = rsa();
  const signerCertPem = certificate({
    subject: [
      { name: 'commonName', value: `Pass Type ID: ${passTypeId}` },
      { name: 'organizationalUnitName', value: teamId },
      { name: 'organizationName', value: 'Storefront tests' },
    ],
    issuer: caName,
    publicKeyPem: signer.publicKey.export(spki) as string,
    signingKeyPem: ca.privateKey.export(pem) as string,
    ca: false,
  });
  const google = rsa();

  mkdirSync(path.join(dir, 'apple'), { recursive: true });
  mkdirSync(path.join(dir, 'google'), { recursive: true });
  writeFileSync(path.join(dir, 'apple', 'wwdr.pem'), wwdrPem);
  writeFileSync(path.join(dir, 'apple', 'signer-cert.pem'), signerCertPem);
  writeFileSync(path.join(dir, 'apple', 'signer-key.pem'), signer.privateKey.export(pem) as string);
  writeFileSync(
    path.join(dir, 'google', 'service-account.json'),
    JSON.stringify({
      type: 'service_account',
      project_id: 'wallet-test',
      private_key_id: randomBytes(20).toString('hex'),
      private_key: google.privateKey.export(pem),
      client_email: clientEmail,
      client_id: '100000000000000000000',
    }),
  );
  const file = path.join(dir, 'wallet.json');
  writeFileSync(
    file,
    JSON.stringify(
      {
        apple: {
          pass_type_id: passTypeId,
          team_id: teamId,
          signer_cert: 'apple/signer-cert.pem',
          signer_key: 'apple/signer-key.pem',
          wwdr: 'apple/wwdr.pem',
        },
        google: { issuer_id: issuerId, service_account: 'google/service-account.json' },
      },
      null,
      2,
    ),
  );
  return {
    file,
    passTypeId,
    teamId,
    issuerId,
    clientEmail,
    signerCertPem,
    wwdrPem,
    googlePublicKeyPem: google.publicKey.export(spki) as string,
  };
}
