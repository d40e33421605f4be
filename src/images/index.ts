export { registerImages } from "./images.routes.ts";
export { IMAGE_TYPES, type ImageExtension } from "./sniff.ts";
export {
  IMAGE_MAX_BYTES,
  IMAGE_TIMEOUT_MS,
  isStoredImageUrl,
  storedImageUrl,
  storeImage,
  storeImageFromUrl,
} from "./store.ts";
