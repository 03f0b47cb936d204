// class-transformer 0.5 types its root entry only. These are the CommonJS files that
// entry itself loads (the same metadata singleton), as @nestjs/mapped-types reads them.
declare module 'class-transformer/cjs/storage.js' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage.js';
}

declare module 'class-transformer/cjs/constants/default-options.constant.js' {
  export { defaultOptions } from 'class-transformer/types/constants/default-options.constant.js';
}
