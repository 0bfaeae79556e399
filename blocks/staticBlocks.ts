/**
 * What only a client-side navigation needs, one module: the components of the static blocks and
 * of the site chrome (the first load keeps the server's HTML of these parts: blocks/chrome/Kept.tsx)
 * and the head writer. In the browser it is one chunk, fetched for the first navigation, ahead of
 * time on a link's hover or focus.
 */
export { default as ApplyCta } from './applyCta/ApplyCta';
export { default as CityIndex } from './cityIndex/CityIndex';
export { default as CityList } from './cityList/CityList';
export { default as ContentBody } from './contentBody/ContentBody';
export { default as ContentList } from './contentList/ContentList';
export { default as Faq } from './faq/Faq';
export { default as Hero } from './hero/Hero';
export { default as LinkGrid } from './linkGrid/LinkGrid';
export { default as LocationFacts } from './locationFacts/LocationFacts';
export { default as RichText } from './richText/RichText';
export { default as SearchForm } from './searchForm/SearchForm';
export { default as StateList } from './stateList/StateList';
export { default as Steps } from './steps/Steps';
export { default as StoreDirectory } from './storeDirectory/StoreDirectory';
export { default as StoreFacts } from './storeFacts/StoreFacts';
export { Footer } from './chrome/Footer';
export { Header } from './chrome/Header';
export { writePageHead } from './chrome/pageHead';
