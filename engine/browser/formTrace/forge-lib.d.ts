/** node-forge's own files, imported one by one so the forge chunk holds only what sealing uses. */
declare module 'node-forge/lib/forge.js' {
  import forge from 'node-forge';
  export default forge;
}
declare module 'node-forge/lib/asn1.js';
declare module 'node-forge/lib/rsa.js';
declare module 'node-forge/lib/aes.js';
declare module 'node-forge/lib/sha256.js';
