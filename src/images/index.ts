export { registerImages } from "./images.routes.ts";
export { IMAGE_TYPES, type ImageExtension } from "./sniff.ts";
export {
  IMAGE_MAX_BYTES,
  IMAGE_TIMEOUT_MS,
  ownImageFile,
  publicOrigin,
  renderImageUrl,
  storedImageFile,
  storedImageUrl,
  storeImage,
} from "./store.ts";
