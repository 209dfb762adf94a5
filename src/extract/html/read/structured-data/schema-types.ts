/**
 * The part of schema.org's type tree the shapes need: each known type's parent, so that an
 * item's most specific type is told (`NewsArticle` over `Article`), and its family, which
 * picks its shape (item-of.ts). A type not listed here is read raw.
 */

export type Family =
  'article' | 'product' | 'recipe' | 'event' | 'faq' | 'howto' | 'breadcrumbs' | 'organization' | 'person' | 'webpage';

/** The types that root a family (a Recipe is a HowTo in schema.org, an FAQPage a WebPage: each has its own shape). */
const FAMILY_ROOTS: Readonly<Record<string, Family>> = {
  Article: 'article',
  Product: 'product',
  Recipe: 'recipe',
  Event: 'event',
  FAQPage: 'faq',
  HowTo: 'howto',
  BreadcrumbList: 'breadcrumbs',
  Organization: 'organization',
  Person: 'person',
  WebPage: 'webpage',
  WebSite: 'webpage',
};

/** Each type's parent, in the groups schema.org has them. */
const PARENT: Readonly<Record<string, string>> = {
  Thing: '',
  CreativeWork: 'Thing',
  Intangible: 'Thing',
  ItemList: 'Intangible',
  BreadcrumbList: 'ItemList',
  ...children('CreativeWork', ['Article', 'HowTo', 'WebPage', 'WebSite']),
  ...children('Article', [
    'AdvertiserContentArticle',
    'NewsArticle',
    'Report',
    'SatiricalArticle',
    'ScholarlyArticle',
    'SocialMediaPosting',
    'TechArticle',
  ]),
  ...children('NewsArticle', [
    'AnalysisNewsArticle',
    'AskPublicNewsArticle',
    'BackgroundNewsArticle',
    'OpinionNewsArticle',
    'ReportageNewsArticle',
    'ReviewNewsArticle',
  ]),
  ...children('ScholarlyArticle', ['MedicalScholarlyArticle']),
  ...children('SocialMediaPosting', ['BlogPosting', 'DiscussionForumPosting']),
  ...children('BlogPosting', ['LiveBlogPosting']),
  ...children('TechArticle', ['APIReference']),
  ...children('HowTo', ['Recipe']),
  ...children('WebPage', [
    'AboutPage',
    'CheckoutPage',
    'CollectionPage',
    'ContactPage',
    'FAQPage',
    'ItemPage',
    'MedicalWebPage',
    'ProfilePage',
    'QAPage',
    'RealEstateListing',
    'SearchResultsPage',
  ]),
  ...children('Thing', ['Product', 'Event', 'Organization', 'Person']),
  ...children('Product', [
    'IndividualProduct',
    'ProductCollection',
    'ProductGroup',
    'ProductModel',
    'SomeProducts',
    'Vehicle',
  ]),
  ...children('Vehicle', ['BusOrCoach', 'Car', 'Motorcycle', 'MotorizedBicycle']),
  ...children('Event', [
    'BusinessEvent',
    'ChildrensEvent',
    'ComedyEvent',
    'CourseInstance',
    'DanceEvent',
    'DeliveryEvent',
    'EducationEvent',
    'EventSeries',
    'ExhibitionEvent',
    'Festival',
    'FoodEvent',
    'Hackathon',
    'LiteraryEvent',
    'MusicEvent',
    'PublicationEvent',
    'SaleEvent',
    'ScreeningEvent',
    'SocialEvent',
    'SportsEvent',
    'TheaterEvent',
    'VisualArtsEvent',
  ]),
  ...children('PublicationEvent', ['BroadcastEvent', 'OnDemandEvent']),
  ...children('Organization', [
    'Airline',
    'Consortium',
    'Corporation',
    'EducationalOrganization',
    'FundingScheme',
    'GovernmentOrganization',
    'LibrarySystem',
    'LocalBusiness',
    'MedicalOrganization',
    'NGO',
    'NewsMediaOrganization',
    'OnlineBusiness',
    'PerformingGroup',
    'PoliticalParty',
    'Project',
    'ResearchOrganization',
    'SportsOrganization',
    'WorkersUnion',
  ]),
  ...children('EducationalOrganization', ['CollegeOrUniversity', 'ElementarySchool', 'HighSchool', 'School']),
  ...children('OnlineBusiness', ['OnlineStore']),
  ...children('PerformingGroup', ['DanceGroup', 'MusicGroup', 'TheaterGroup']),
  ...children('SportsOrganization', ['SportsTeam']),
  ...children('LocalBusiness', [
    'AnimalShelter',
    'AutomotiveBusiness',
    'ChildCare',
    'Dentist',
    'DryCleaningOrLaundry',
    'EmergencyService',
    'EmploymentAgency',
    'EntertainmentBusiness',
    'FinancialService',
    'FoodEstablishment',
    'GovernmentOffice',
    'HealthAndBeautyBusiness',
    'HomeAndConstructionBusiness',
    'InternetCafe',
    'LegalService',
    'Library',
    'LodgingBusiness',
    'MedicalBusiness',
    'ProfessionalService',
    'RadioStation',
    'RealEstateAgent',
    'RecyclingCenter',
    'SelfStorage',
    'ShoppingCenter',
    'SportsActivityLocation',
    'Store',
    'TelevisionStation',
    'TouristInformationCenter',
    'TravelAgency',
  ]),
  ...children('FoodEstablishment', [
    'Bakery',
    'BarOrPub',
    'Brewery',
    'CafeOrCoffeeShop',
    'Distillery',
    'FastFoodRestaurant',
    'IceCreamShop',
    'Restaurant',
    'Winery',
  ]),
  ...children('LodgingBusiness', ['BedAndBreakfast', 'Campground', 'Hostel', 'Hotel', 'Motel', 'Resort']),
  ...children('AutomotiveBusiness', ['AutoDealer', 'AutoRepair', 'GasStation']),
  ...children('LegalService', ['Attorney', 'Notary']),
  ...children('FinancialService', ['AccountingService', 'BankOrCreditUnion', 'InsuranceAgency']),
  ...children('Store', [
    'BikeStore',
    'BookStore',
    'ClothingStore',
    'ComputerStore',
    'ConvenienceStore',
    'DepartmentStore',
    'ElectronicsStore',
    'Florist',
    'FurnitureStore',
    'GardenStore',
    'GroceryStore',
    'HardwareStore',
    'HobbyShop',
    'HomeGoodsStore',
    'JewelryStore',
    'MusicStore',
    'OutletStore',
    'PetStore',
    'ShoeStore',
    'SportingGoodsStore',
    'ToyStore',
  ]),
  ...children('MedicalBusiness', ['MedicalClinic', 'Optician', 'Pharmacy', 'Physician']),
};

function children(parent: string, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, parent]));
}

/** Steps from Thing; -1 for a type not listed. */
function depthOf(type: string): number {
  if (!Object.hasOwn(PARENT, type)) return -1;
  let depth = 0;
  for (let at = PARENT[type]!; at !== '' && depth < 32; at = PARENT[at] ?? '') depth += 1;
  return depth;
}

/** The most specific known type of `types` (the first of the deepest), else the first. */
export function mainType(types: readonly string[]): string {
  let best = types[0] ?? '';
  let bestDepth = depthOf(best);
  for (const type of types) {
    const depth = depthOf(type);
    if (depth > bestDepth) {
      best = type;
      bestDepth = depth;
    }
  }
  return best;
}

/** The family whose shape `type` takes, if any. */
export function familyOf(type: string): Family | undefined {
  for (let at = type, steps = 0; at !== '' && steps < 32; at = PARENT[at] ?? '', steps += 1) {
    if (Object.hasOwn(FAMILY_ROOTS, at)) return FAMILY_ROOTS[at];
    if (!Object.hasOwn(PARENT, at)) return undefined;
  }
  return undefined;
}
