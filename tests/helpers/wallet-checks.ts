import { createHash, createVerify } from 'node:crypto';
import forge from 'node-forge';
import { unzip } from './zip';

/**
 * Reads a .pkpass as Apple Wallet does: every file's SHA-1 must be in manifest.json, and `signature` must be a PKCS#7
 * signature of manifest.json by `signerCertPem` (its signed attributes' message digest is the manifest's, and the
 * signer's key signed those attributes). Returns pass.json and what held.
 */
export function readPkpass(data: Buffer, signerCertPem: string) {
  const files = unzip(data);
  const manifest = JSON.parse(files['manifest.json']?.toString('utf8') ?? '{}') as Record<string, string>;
  const listed = Object.keys(files).filter((f) => f !== 'manifest.json' && f !== 'signature');
  const manifestOk =
    listed.length > 0 &&
    listed.every((f) => manifest[f] === createHash('sha1').update(files[f]).digest('hex')) &&
    Object.keys(manifest).length === listed.length;

  let signatureOk = false;
  if (files.signature) {
    const msg = forge.pkcs7.messageFromAsn1(forge.asn1.fromDer(forge.util.createBuffer(files.signature.toString('binary')))) as unknown as {
      rawCapture: { authenticatedAttributes: forge.asn1.Asn1[]; signature: string; digestAlgorithm: string };
    };
    const { authenticatedAttributes: attrs, signature, digestAlgorithm } = msg.rawCapture;
    const algorithm = forge.asn1.derToOid(digestAlgorithm) === forge.pki.oids.sha256 ? 'sha256' : 'sha1';
    const digestAttr = attrs.find(
      (a) => forge.asn1.derToOid((a.value as forge.asn1.Asn1[])[0].value as string) === forge.pki.oids.messageDigest,
    );
    const digest = digestAttr ? (((digestAttr.value as forge.asn1.Asn1[])[1].value as forge.asn1.Asn1[])[0].value as string) : '';
    const md = algorithm === 'sha256' ? forge.md.sha256.create() : forge.md.sha1.create();
    md.update(forge.asn1.toDer(forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, attrs)).getBytes());
    const signer = forge.pki.certificateFromPem(signerCertPem).publicKey as forge.pki.rsa.PublicKey;
    const signedBy = () => {
      try {
        return signer.verify(md.digest().bytes(), signature);
      } catch {
        return false; // forge throws when another key's signature does not even decode
      }
    };
    signatureOk = Buffer.from(digest, 'binary').equals(createHash(algorithm).update(files['manifest.json']).digest()) && signedBy();
  }
  return { files, passJson: JSON.parse(files['pass.json'].toString('utf8')) as Record<string, any>, manifestOk, signatureOk };
}

/** The claims of a Google Wallet save link (https://pay.google.com/gp/v/save/{JWT}), its RS256 signature checked. */
export function readSaveLink(location: string, publicKeyPem: string) {
  const jwt = location.replace(/^https:\/\/pay\.google\.com\/gp\/v\/save\//, '');
  const [head, body, sig] = jwt.split('.');
  const signatureOk = createVerify('RSA-SHA256').update(`${head}.${body}`).verify(publicKeyPem, Buffer.from(sig, 'base64url'));
  return {
    header: JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as Record<string, unknown>,
    claims: JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, any>,
    signatureOk,
  };
}
